"""Value types shared by every rule set: the game state, moves, events and errors.

The state is immutable: applying an action returns a new state, so a bot can search ahead and the web
site can keep any position without a copy. Fields mirror docs/record.md's state JSON; the extras a
rule set needs to remember (a run of sixes, what a three-sixes undo must restore) live in `memo`, which
never appears in the JSON.
"""

from __future__ import annotations

from typing import Any, NamedTuple

YARD = -1
LAST_TRACK = 50  # progress 0..50 is the shared track
HOME = 56  # 51..55 is the token's own home column

PLAYING = "playing"
FINISHED = "finished"
ROLL = "roll"
MOVE = "move"


class EngineError(Exception):
    """Base of the engine's errors; `str(error)` is a sentence a player can read."""


class IllegalMoveError(EngineError):
    """A well-formed action that can't apply in the position it meets (docs/record.md: exit 1)."""


class MalformedError(EngineError):
    """Input that is not a game: unknown rule set, bad options or players (docs/record.md: exit 2)."""


class Move(NamedTuple):
    """One legal move: which token, which number of the hand, whether its pair moves, where it lands.

    `die` is an int, or "total" for the last seed in `twodice`. `to` is the destination progress (56 for a
    `twodice` kill).
    """

    colour: str
    # Named as the record names it; it hides tuple.index, which nothing calls on a Move.
    index: int  # type: ignore[assignment]
    die: int | str
    pair: bool
    to: int

    @property
    def token(self) -> tuple[str, int]:
        return (self.colour, self.index)

    def to_json(self) -> dict[str, Any]:
        return {
            "token": [self.colour, self.index],
            "die": self.die,
            "pair": self.pair,
            "to": self.to,
        }


class Event(NamedTuple):
    """Something that happened while applying an action, in order, for the site's log and animations.

    kind is one of: "rolled" (dice), "moved" (token, frm, to), "captured" (token, frm: sent to the yard),
    "killed" (token of the killer: it left the board), "home" (token), "bonus_roll", "three_sixes",
    "undone" (token, frm, to: put back by a three-sixes undo), "restored" (token, to: a captured token
    brought back), "dice_lost" (dice), "turn_passed" (player: the new player to act), "player_finished"
    (player, place), "game_over".
    """

    kind: str
    player: int | None = None
    token: tuple[str, int] | None = None
    frm: int | None = None
    to: int | None = None
    dice: tuple[int, ...] | None = None
    place: int | None = None


class State(NamedTuple):
    """A position. Immutable; a NamedTuple because the engine builds one per roll and per move, and a
    tuple is built about three times faster than a frozen dataclass (`state._replace(...)` for copies).
    """

    ruleset: str
    options: tuple[tuple[str, Any], ...]  # sorted (name, value) pairs; see `options_dict`
    players: tuple[tuple[str, ...], ...]
    colours: tuple[str, ...]  # every colour in play, players' colours in player order
    tokens: tuple[tuple[int, ...], ...]  # progress per colour, parallel to `colours`
    status: str = PLAYING
    turn: int = 0
    awaiting: str = ROLL
    dice: tuple[int, ...] = ()
    rolls: int = 0
    places: tuple[int, ...] = ()
    memo: Any = None  # rule-set private, immutable

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def option(self, name: str) -> Any:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    def colour_index(self, colour: str) -> int:
        return self.colours.index(colour)

    def progress(self, colour: str, index: int) -> int:
        return self.tokens[self.colours.index(colour)][index]

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def to_json(self, legal: tuple[Move, ...] | None = None) -> dict[str, Any]:
        """docs/record.md's state object; `legal` is included when given (replay prints it)."""
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "players": [list(p) for p in self.players],
            "status": self.status,
            "turn": self.turn,
            "awaiting": self.awaiting,
            "dice": list(self.dice),
            "rolls": self.rolls,
            "tokens": {c: list(t) for c, t in zip(self.colours, self.tokens, strict=True)},
            "places": list(self.places),
        }
        if legal is not None:
            data["legal"] = [m.to_json() for m in legal]
        return data
