"""The `python -m games.engine replay RECORD.json|-` command: replays a record (or JSON lines of them)
and prints each final position as JSON; exit 2 for a record that does not have docs/record.md's shape,
1 for an action that can't be applied where it stands (record_format does the replaying)."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

from .record_format import ActionError, replay_record, state_json
from .state import EngineError, MalformedError

MAX_INPUT_BYTES = 256 * 1024 * 1024  # refuse absurd input instead of exhausting memory


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _decode(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def replay_value(value: Any) -> tuple[dict[str, Any], int]:
    """(what to print, exit code) for one decoded record; never raises."""
    try:
        return state_json(replay_record(value)), 0
    except ActionError as error:
        return {"error": str(error), "at": error.at}, 1
    except MalformedError as error:
        return {"error": str(error)}, 2
    except EngineError as error:  # an engine refusal not tied to an action: still not a record
        return {"error": str(error)}, 2
    except RecursionError:
        return {"error": "record nested too deeply"}, 2
    except Exception as error:  # never a traceback: report the bug as an error line instead
        return {"error": f"internal error: {type(error).__name__}: {error}"}, 2


def _looks_like_json_lines(lines: list[str]) -> bool:
    """Whether text that is not one JSON value is a batch of records rather than one broken record.

    A broken (e.g. truncated) pretty-printed record has lines like `{` or `"roll": [`, none of which is
    a JSON object or list on its own; a batch has at least one such line. So a truncated record gets one
    error line, not one per line of its text.
    """
    if len(lines) < 2:
        return False
    for line in lines:
        stripped = line.strip()
        if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
            try:
                if isinstance(_decode(stripped), dict | list):
                    return True
            except (ValueError, RecursionError):
                continue
    return False


def replay_text(text: str) -> tuple[bool, list[tuple[dict[str, Any], int]]]:
    """(is it a JSON Lines batch, [(output object, exit code) per record]) for an input text."""
    try:
        value = _decode(text)
    except (ValueError, RecursionError) as error:
        lines = [line for line in text.splitlines() if line.strip()]
        if not _looks_like_json_lines(lines):
            reason = "empty input" if not lines else f"not JSON: {error}"
            return False, [({"error": reason}, 2)]
        results = []
        for line in lines:
            try:
                line_value = _decode(line)
            except (ValueError, RecursionError) as line_error:
                results.append(({"error": f"not JSON: {line_error}"}, 2))
                continue
            results.append(replay_value(line_value))
        return True, results
    return False, [replay_value(value)]


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    with open(path, "rb") as handle:
        return handle.read(MAX_INPUT_BYTES + 1)


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


def replay_main(path: str) -> int:
    """`python -m games.engine replay PATH|-`: print each record's final state; exit 0, 1 or 2.

    A single record exits with its own code; a JSON Lines batch exits 2 if any line is not a record,
    else 0 (illegal actions are reported on their lines).
    """
    try:
        try:
            data = _read(path)
        except OSError as error:
            _emit({"error": f"can't read {path}: {error.strerror or error}"})
            return 2
        if len(data) > MAX_INPUT_BYTES:
            _emit({"error": "input too large"})
            return 2
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            _emit({"error": "input is not UTF-8 text"})
            return 2
        batch, results = replay_text(text)
        for obj, _ in results:
            _emit(obj)
        if batch:  # a bad line doesn't stop the rest, and only a line that is no record fails
            return 2 if any(code == 2 for _, code in results) else 0
        return results[0][1]
    except Exception as error:  # never a traceback
        with contextlib.suppress(Exception):  # stdout itself may be what failed
            _emit({"error": f"internal error: {type(error).__name__}"})
        return 2
