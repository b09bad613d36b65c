"""A page's live board as the live bench keeps it from what the server sends it, and the actions the
page's player could take on it: the bench picks its next action from this model, not from a whole
board, since a push carries only the regions that changed (games/live/fragments.py: `delta`).

What a page is sent, and how the model takes it (as static/js/game.js does):

- a whole board (the page's first, a POST's answer, a resync): `<div id="game-live" ...>` with every
  region inside, each `<div id="live-<name>" class="live-region">`; it replaces the model;
- a push: `<div id="game-live" hx-swap-oob="none" data-from="F" data-version="V" ...></div>` (the
  attributes the page's #game-live takes), then each region that changed; it applies only to a page
  showing version F. Older than the model's version, it is dropped; from another version, the page
  missed one and must ask for the whole board (`{"resync": -1}` over its socket).

How bench/live.py uses it, one model per page (socket):

    model = BoardModel()
    result = model.apply(frame)          # every frame and every POST answer's body
    if result == GAP:                    # a push was missed: ask for the whole board
        await ws.send(json.dumps({"resync": -1}))
    model.version                        # the version the page shows
    model.actions()                      # [("roll", {...}) or ("move", {...}), ...]: POST or ws-send

>>> model = BoardModel()
>>> model.apply('<div id="game-live" data-version="3" data-my-turn="1" data-can-roll="1">'
...             '<div id="live-dice" class="live-region"></div></div>')
'whole'
>>> model.version, model.actions()
(3, [('roll', {'version': 3})])
>>> model.apply('<div id="game-live" hx-swap-oob="none" data-from="3" data-version="4" '
...             'data-my-turn="0" data-can-roll="0"></div>'
...             '<div id="live-dice" class="live-region" hx-swap-oob="morph"></div>')
'push'
>>> model.version, model.actions()
(4, [])
>>> model.apply('<div id="game-live" hx-swap-oob="none" data-from="5" data-version="6"></div>')
'gap'

A tree that pushes whole boards without regions (before the regions) is followed alike: each push is
a whole board, and its token buttons are read from all of it.

>>> old = BoardModel()
>>> options = "'[{&quot;die&quot;: 0}]'"  # the token's ways, as the template escapes them
>>> old.apply('<div id="game-live" hx-swap-oob="true" data-version="5" data-my-turn="1" '
...           'data-can-roll="0"><button class="token-button tb-red movable" id="tb-red-0" '
...           'data-token="red:0" data-options=' + options + '></button></div>')
'whole'
>>> old.actions()
[('move', {'version': 5, 'colour': 'red', 'index': '0', 'die': 0})]
"""

from __future__ import annotations

import html
import json
import re

WHOLE, PUSH, OLD, GAP, OTHER = "whole", "push", "old", "gap", "other"

DELTA_START = '<div id="game-live" hx-swap-oob="none" data-from="'
_HEAD = re.compile(r'<div id="game-live"[^>]*>')
_ATTRIBUTE = re.compile(r'([a-z][a-z0-9-]*)="([^"]*)"')
_REGION = re.compile(r'<div id="live-([a-z]+)" class="live-region"')
_DIV = re.compile(r"<div\b|</div>")
# A movable token button (games/live/dice_panel.py) and the ways it may move.
_OPTIONS = re.compile(
    r'class="token-button[^"]*\bmovable\b[^"]*"[^>]*? data-token="([^"]+)" data-options=\'([^\']*)\''
)


class BoardModel:
    """One page's board: the attributes of its #game-live and the HTML of each region."""

    def __init__(self) -> None:
        self.attributes: dict[str, str] = {}
        self.regions: dict[str, str] = {}
        self.wholes = 0  # whole boards taken
        self.pushes = 0  # pushes applied
        self.regions_swapped = 0  # regions the pushes carried, summed
        self.gaps = 0  # pushes from a version the page didn't show

    @property
    def version(self) -> int:
        return int(self.attributes.get("data-version", -1))

    @property
    def status(self) -> str:
        return self.attributes.get("data-status", "")

    @property
    def my_turn(self) -> bool:
        return self.attributes.get("data-my-turn") == "1"

    def apply(self, frame: str) -> str:
        """Take one frame or POST answer: WHOLE or PUSH if the model took it, OLD if it was older
        than what the model shows (dropped), GAP if it moves from a version the model doesn't show
        (dropped: ask for the whole board), OTHER if it is no board (a toast, the chat, a name)."""
        if frame.startswith(DELTA_START):
            return self._push(frame)
        head = _HEAD.search(frame[:2000])
        if head is None:
            return OTHER
        attributes = _attributes(head.group(0))
        if int(attributes.get("data-version", -1)) < self.version:
            return OLD
        self.attributes = attributes
        self.regions = _regions(frame) or {WHOLE: frame}  # no regions: an older tree's board
        self.wholes += 1
        return WHOLE

    def _push(self, frame: str) -> str:
        end = frame.index(">") + 1
        attributes = _attributes(frame[:end])
        since, version = int(attributes.pop("data-from")), int(attributes.get("data-version", -1))
        if since != self.version:
            if version <= self.version:
                return OLD
            self.gaps += 1
            return GAP
        attributes.pop("hx-swap-oob", None)
        self.attributes = attributes
        changed = _regions(frame[end:])
        self.regions.update(changed)
        self.pushes += 1
        self.regions_swapped += len(changed)
        return PUSH

    def moved(self, version: int) -> None:
        """The version moved and the board did not (the bench's floor action, games/web/bench_floor.py,
        whose frames carry no board): the next push moves from it."""
        if version > self.version:
            self.attributes["data-version"] = str(version)

    def actions(self) -> list[tuple[str, dict]]:
        """What this page's player may do now, as the page would send it (a POST's fields, or a
        ws-send's): a roll, or each way each movable token may go; [] when it is not their turn."""
        if not self.my_turn or self.status not in ("", "playing"):
            return []
        version = self.version
        if self.attributes.get("data-can-roll") == "1":
            return [("roll", {"version": version})]
        found = []
        for token, raw in _OPTIONS.findall(self.regions.get("dice", self.regions.get(WHOLE, ""))):
            colour, index = token.split(":")
            for option in json.loads(html.unescape(raw)):
                values: dict = {"version": version, "colour": colour, "index": index}
                if option.get("die") not in (None, ""):
                    values["die"] = option["die"]
                if option.get("pair"):
                    values["pair"] = "true"
                found.append(("move", values))
        return found


def _attributes(tag: str) -> dict[str, str]:
    return {name: html.unescape(value) for name, value in _ATTRIBUTE.findall(tag)}


def _regions(text: str) -> dict[str, str]:
    """Each region's HTML in `text`: its div, to the end tag that closes it."""
    found = {}
    for region in _REGION.finditer(text):
        depth = 0
        for tag in _DIV.finditer(text, region.start()):
            depth += 1 if tag.group(0) == "<div" else -1
            if depth == 0:
                found[region.group(1)] = text[region.start() : tag.end()]
                break
    return found
