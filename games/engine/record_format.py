"""Game records (docs/record.md): parse, check and replay one into the engine's final `State`.

A record that does not have docs/record.md's shape raises MalformedError; a well-shaped action that
can't be applied where it stands raises ActionError, which carries the index of that action. The
`python -m games.engine replay` command is replay_command.

>>> record = {
...     "format": "ludopat-record/1",
...     "ruleset": "classic",
...     "players": [["red"], ["yellow"]],
...     "actions": [{"roll": [6]}, {"move": {"token": ["red", 0]}}, {"roll": [4]}],
... }
>>> state = replay_record(record)
>>> state.awaiting, state.progress("red", 0), state.dice
('move', 0, (4,))
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import game
from .state import IllegalMoveError, MalformedError, State

FORMAT = "ludopat-record/1"


class ActionError(IllegalMoveError):
    """An action of a record that can't be applied; `at` is its index in `actions`."""

    def __init__(self, message: str, at: int) -> None:
        super().__init__(message)
        self.at = at


class Roll(NamedTuple):
    dice: tuple[int, ...]


class MoveRequest(NamedTuple):
    colour: str
    index: int  # type: ignore[assignment]  # the record's name; hides tuple.index, never called
    die: int | str | None
    pair: bool


class Record(NamedTuple):
    ruleset: str
    options: dict[str, Any]
    players: tuple[tuple[str, ...], ...]
    actions: tuple[Roll | MoveRequest, ...]


def _is_int(value: Any) -> bool:
    return type(value) is int  # booleans are not integers (docs/record.md)


def _parse_action(action: Any, at: int) -> Roll | MoveRequest:
    where = f"action {at}"
    if not isinstance(action, dict):
        raise MalformedError(f"{where} is not an object")
    kinds = [key for key in ("roll", "move") if key in action]
    if len(kinds) != 1:
        raise MalformedError(f'{where} must have exactly one of "roll" and "move"')
    if kinds[0] == "roll":
        dice = action["roll"]
        if not isinstance(dice, list) or not all(_is_int(d) for d in dice):
            raise MalformedError(f"{where}: roll must be a list of integers")
        return Roll(tuple(dice))
    body = action["move"]
    if not isinstance(body, dict):
        raise MalformedError(f"{where}: move must be an object")
    token = body.get("token")
    if (
        not isinstance(token, list)
        or len(token) != 2
        or not isinstance(token[0], str)
        or not _is_int(token[1])
    ):
        raise MalformedError(f"{where}: token must be [colour, index]")
    die = body.get("die")
    if "die" in body and not (_is_int(die) or die == "total"):
        raise MalformedError(f'{where}: die must be an integer or "total"')
    pair = body.get("pair", False)
    if type(pair) is not bool:
        raise MalformedError(f"{where}: pair must be true or false")
    return MoveRequest(token[0], token[1], die, pair)


def parse_record(record: Any) -> Record:
    """Check a decoded record's shape (docs/record.md); MalformedError says what is wrong.

    >>> parse_record({"format": "ludopat-record/1", "ruleset": "duel",
    ...               "players": [["red"], ["blue"]], "actions": [{"roll": [3]}]}).actions
    (Roll(dice=(3,)),)
    """
    if not isinstance(record, dict):
        raise MalformedError("a record is a JSON object")
    if record.get("format") != FORMAT or not isinstance(record.get("format"), str):
        raise MalformedError(f'format must be "{FORMAT}"')
    name = record.get("ruleset")
    if not isinstance(name, str):
        raise MalformedError("ruleset must be a string")
    rules = game.ruleset(name)  # MalformedError if unknown
    # A present but null `options` is not "missing": it is of the wrong type.
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise MalformedError("options must be an object")
    game.normalise_options(name, options)
    players = record.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, list) and all(isinstance(c, str) for c in p) for p in players
    ):
        raise MalformedError("players must be a list of lists of colour names")
    frozen = tuple(tuple(p) for p in players)
    rules.check_players(frozen)
    # `actions` is required: a game that has not started has an empty list.
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise MalformedError("actions must be a list")
    parsed = tuple(_parse_action(action, at) for at, action in enumerate(actions))
    return Record(name, options, frozen, parsed)


def play(record: Record) -> State:
    """Apply a parsed record's actions from the start; ActionError at the first that can't apply."""
    state = game.new_game(record.ruleset, record.players, record.options)
    for at, action in enumerate(record.actions):
        try:
            if isinstance(action, Roll):
                state, _ = game.roll(state, action.dice)
            else:
                state, _ = game.move(state, action.colour, action.index, action.die, action.pair)
        except IllegalMoveError as error:
            raise ActionError(str(error), at) from None
    return state


def replay_record(record: Any) -> State:
    """The state after every action of a decoded record (MalformedError or ActionError if not)."""
    return play(parse_record(record))


def state_json(state: State) -> dict[str, Any]:
    """The state as `replay` prints it: docs/record.md's state object with `legal`."""
    return state.to_json(legal=game.legal_moves(state))


# ---------------------------------------------------------------------------------------------------
# The command
