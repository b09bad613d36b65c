"""JSON from a client (an action POST's body, a WebSocket frame): one JSON object, shallow and small.

`json.loads("[" * 100000)` raises RecursionError (a 500, or a dead WebSocket consumer); nothing a
page sends is nested more than a couple of levels, so anything deeper than MAX_DEPTH is refused with a
sentence before the parser sees it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest

from .numbers import parse_int

MAX_DEPTH = 8
MAX_CHARS = 64 * 1024  # a chat message of 2,000 characters with every field escaped fits many times

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class BadJson(ValueError):
    """The client sent something that is not one small JSON object; str() is a readable sentence."""


def depth(text: str) -> int:
    """How deeply arrays and objects nest in `text` (brackets inside strings don't count).

    >>> depth('{"a": [1, {"b": "[[["}]}'), depth("[" * 5), depth("3")
    (3, 5, 0)
    """
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def parse_object(raw: str | bytes | None) -> dict[str, Any]:
    """The JSON object in `raw` (empty means {}); BadJson with a sentence for anything else."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson("Bad request: send JSON in UTF-8.") from None
    raw = (raw or "").strip() or "{}"
    if len(raw) > MAX_CHARS:
        raise BadJson(f"Bad request: that message is too long (at most {MAX_CHARS} characters).")
    if depth(raw) > MAX_DEPTH:
        raise BadJson("Bad request: that JSON is nested too deeply.")
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadJson("Bad request: that is not valid JSON.") from None
    if not isinstance(value, dict):
        raise BadJson("Bad request: send a JSON object.")
    return value


def as_fields(message: dict[str, Any]) -> dict[str, str]:
    """The object's values as form fields (strings): numbers keep their JSON spelling, so 5 is "5"
    and 1e3 stays "1000.0" (refused by the number fields); nulls are left out."""
    return {
        str(k): v if isinstance(v, str) else json.dumps(v)
        for k, v in message.items()
        if v is not None and k != "HEADERS"  # htmx's ws-send adds the request headers
    }


def action_fields(request: HttpRequest) -> dict[str, str]:
    """An action POST's parameters as form fields, for its form: a JSON body's object (BadJson if it
    isn't one) or the form-encoded fields."""
    if request.content_type == "application/json":
        return as_fields(parse_object(request.body))
    return request.POST.dict()


@dataclass(frozen=True)
class Frame:
    """A game page's WebSocket frame, read: a heartbeat, a request for the board (`resync`: the
    version the page shows, -1 if it said nothing usable), or an action with its fields (for the
    action's form; `action` is None if the frame names none)."""

    heartbeat: bool = False
    resync: int | None = None
    action: str | None = None
    fields: dict[str, str] = field(default_factory=dict)


def parse_frame(raw: str | bytes | None) -> Frame:
    """The frame a page sent (BadJson with a sentence if it is not one small JSON object)."""
    message = parse_object(raw)
    message.pop("HEADERS", None)  # htmx's ws-send adds the request headers
    if "action" not in message:
        if "heartbeat" in message:
            return Frame(heartbeat=True)
        if "resync" in message:
            version = parse_int(message["resync"], lo=0)
            return Frame(resync=-1 if version is None else version)
    name = message.pop("action", None)
    return Frame(action=name if isinstance(name, str) else None, fields=as_fields(message))
