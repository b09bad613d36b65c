"""The board's moving parts as SVG markup: the tokens and, for a player to move, the glowing targets
with the path to each (games.live.board_view works out where they are).

Built here in Python, not in templates/partials/board.svg.html: a board has up to 16 tokens of about
twenty values each, and a template loop over them was most of the cost of rendering a board, which
every action pays three times (the mover's answer and the other two viewpoints' pushes). The markup is
what the template loop made; tests/games/live/test_board_pieces.py holds the two to the same DOM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def pieces_svg(
    tokens: Iterable[Mapping[str, Any]], targets: Iterable[Mapping[str, Any]]
) -> SafeString:
    """The targets' group (only where there are any) and the tokens' group, in drawing order."""
    targets = list(targets)
    parts = []
    if targets:
        parts.append('<g class="targets" aria-hidden="true">')
        parts.extend(_target(t) for t in targets)
        parts.append("</g>")
    parts.append('<g class="tokens">')
    parts.extend(_token(t) for t in tokens)
    parts.append("</g>")
    return mark_safe("".join(parts))  # noqa: S308  every value from outside is escaped above


def _target(t: Mapping[str, Any]) -> str:
    path = "".join(f'<circle cx="{p["x"]}" cy="{p["y"]}" r="4"/>' for p in t["path"])
    colour = escape(t["colour"])
    return (
        f'<g class="target target-{colour}" data-token="{colour}:{t["index"]}" '
        f'data-die="{escape(t["die"])}" data-pair="{"1" if t["pair"] else "0"}" '
        f'data-x="{t["x"]}" data-y="{t["y"]}">'
        f'<g class="path">{path}</g>'
        f'<circle class="target-ring" cx="{t["x"]}" cy="{t["y"]}" r="17"/></g>'
    )


def _token(t: Mapping[str, Any]) -> str:
    return _token_markup(
        t["colour"],
        t["index"],
        t["r"],
        t["movable"],
        t["last"],
        t["small"],
        t["progress"],
        t["cx"],
        t["cy"],
        t["label"],
        t["where"],
    )


@lru_cache(maxsize=8192, typed=True)  # typed: a radius of 14 and of 14.0 are written differently
def _token_markup(
    colour: str,
    index: int,
    r: float,
    movable: bool,
    last: bool,
    small: bool,
    progress: int,
    cx: float,
    cy: float,
    label: int,
    where: str,
) -> str:
    """One token's markup, made once per process for what it shows: a board is drawn anew after
    every move, with all but one or two of its tokens where the last drawing had them."""
    name = escape(colour.title())
    colour = escape(colour)
    classes = f"token token-{colour}"
    if movable:
        classes += " movable"
    if last:
        classes += " last-moved"
    hit = '<rect class="hit" x="-20" y="-20" width="40" height="40"/>' if movable else ""
    # int(r) + 6: what the template's `add` filter made of the halo's radius, so the DOM is unchanged
    halo = f'<circle class="halo" r="{int(r) + 6}"/>' if movable else ""
    label_class = "token-label small" if small else "token-label"
    return (
        f'<g class="{classes}" id="tok-{colour}-{index}" data-token="{colour}:{index}" '
        f'data-testid="token-{colour}-{index}" data-progress="{progress}" '
        f'transform="translate({cx} {cy})">'
        f"<title>{name} {label}, {escape(where)}</title>"
        f'{hit}<g class="tok-in">{halo}'
        f'<circle class="tok-body" r="{r}" fill="var(--{colour})" stroke="#fff" '
        f'stroke-width="{2 if small else 3}"/>'
        f'<circle r="{r}" fill="url(#tok-shine)" pointer-events="none"/>'
        f'<text y="{3.5 if small else 5}" text-anchor="middle" class="{label_class}">'
        f"{label}</text></g></g>"
    )
