"""Game records (docs/record.md): parse, check, replay; the `python -m games.engine replay` command.

A record that does not have docs/record.md's shape raises MalformedError (the command's exit 2); a
well-shaped action that can't be applied where it stands raises ActionError, which carries the index of
that action (exit 1).

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

import contextlib
import json
import sys
from typing import Any, NamedTuple

from . import game
from .state import EngineError, IllegalMoveError, MalformedError, State

FORMAT = "ludopat-record/1"
MAX_INPUT_BYTES = 256 * 1024 * 1024  # refuse absurd input instead of exhausting memory


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
