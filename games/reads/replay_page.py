"""What the replay page shows: a round's record (docs/record.md) replayed by the engine into one step
per action, each with the position and a sentence saying what happened (the live log's words), the
board geometry of each colour, and how the round ended, for static/js/replay.js.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..core.narration import colour_name, narrate
from ..core.round_ends import RoundEnd
from ..engine.record_format import Roll, parse_record
from ..engine.state import State
from ..live.board_layout import token_cell

CELL = 40


def replay_data(record: dict[str, Any]) -> dict[str, Any]:
    """Everything replay.js needs: the board geometry of each colour and one step per action.

    Step 0 is the position before the first roll; step n is the position after action n-1, with a
    sentence saying what happened. Raises EngineError (MalformedError/IllegalMoveError) for a record
    the engine can't replay.
    """
    parsed = parse_record(record)
    state = engine.new_game(parsed.ruleset, parsed.players, parsed.options)
    names = _player_names(record, parsed.players)
    speakers = _speakers(record, parsed.players)
    corners = engine.corners(state.ruleset)
    steps = [_step(state, 0, "The game begins.", None)]
    for at, action in enumerate(parsed.actions, start=1):
        mover = state.turn
        try:
            if isinstance(action, Roll):
                state, events = engine.roll(state, action.dice)
            else:
                state, events = engine.move(
                    state, action.colour, action.index, action.die, action.pair
                )
        except engine.IllegalMoveError as error:
            raise engine.IllegalMoveError(f"action {at - 1}: {error}") from None
        # The live log's narrator, in the third person: the same words the game's log showed.
        text = narrate(events, mover, speakers) or "Nothing happens."
        steps.append(_step(state, at, text, mover))
    return {
        "ruleset": parsed.ruleset,
        "options": dict(state.options),
        "players": [
            {"name": names[i], "colours": list(colours)} for i, colours in enumerate(parsed.players)
        ],
        "geometry": {colour: _geometry(corners[colour]) for colour in state.colours},
        "steps": steps,
        "finished": state.finished,
        **_outcome(record.get("result"), list(state.places), names, speakers),
    }


def _outcome(
    result: Any, replayed: list[int], names: list[str], speakers: list[str]
) -> dict[str, Any]:
    """The places and a sentence on how the round ended, from the record's stored result (a round
    given up has no winner in its moves); the replayed places for a record without one."""
    stored = result if isinstance(result, dict) else {}
    places: list[int] = [
        p["player"]
        for p in stored.get("places") or []
        if isinstance(p, dict) and isinstance(p.get("player"), int)
    ]
    places = [p for p in places if 0 <= p < len(names)] or replayed
    gave_up = [p for p in stored.get("gave_up") or [] if isinstance(p, int) and 0 <= p < len(names)]
    return {
        "places": [names[p] for p in places],
        "ending": _ending(stored.get("how"), places, gave_up, speakers),
    }


def _ending(how: Any, places: list[int], gave_up: list[int], speakers: list[str]) -> str:
    first = speakers[places[0]] if places else ""
    if how in (RoundEnd.RESIGN, RoundEnd.LEAVE) and first:
        quitters = [speakers[p] for p in gave_up] or [speakers[places[-1]]]
        verb = "resigned" if how == RoundEnd.RESIGN else "left the game"
        return f"{' and '.join(quitters)} {verb}: {first} wins."
    if how == RoundEnd.WON and first:
        return f"{first} won."
    if how == RoundEnd.WIPE and first:
        return f"{speakers[places[-1]]} started a new round before this one was played out."
    endings: dict[str, str] = {
        RoundEnd.ABANDON: "The game was abandoned before it was played out.",
        RoundEnd.AGREED: "The players agreed to end the round early: it counts for nobody.",
        RoundEnd.IDLE: "The round was closed after nobody played for a long time: it counts for nobody.",
        RoundEnd.VOID: "The round was voided: it counts for nobody.",
    }
    return endings.get(how if isinstance(how, str) else "", "")


def _geometry(corner: int) -> dict[str, list[list[float]]]:
    """Board coordinates (SVG units) of a colour's four yard spots and of progress 0..HOME."""

    def point(cell: tuple[float, float]) -> list[float]:
        row, col = cell
        return [col * CELL + CELL / 2, row * CELL + CELL / 2]

    return {
        "yard": [point(token_cell(corner, i, -1)) for i in range(4)],
        "path": [point(token_cell(corner, 0, p)) for p in range(engine.HOME + 1)],
    }


def _step(state: State, at: int, text: str, mover: int | None) -> dict[str, Any]:
    return {
        "n": at,
        "text": text,
        "mover": mover,
        "turn": state.turn,
        "dice": list(state.dice),
        "awaiting": state.awaiting,
        "status": state.status,
        "tokens": {c: list(t) for c, t in zip(state.colours, state.tokens, strict=True)},
        "places": list(state.places),
    }


def _player_names(record: dict[str, Any], players: tuple[tuple[str, ...], ...]) -> list[str]:
    names = record.get("names")
    out = []
    for i, colours in enumerate(players):
        name = names[i] if isinstance(names, list) and i < len(names) else None
        label = " and ".join(colour_name(c) for c in colours)
        out.append(f"{name} ({label})" if isinstance(name, str) and name else label)
    return out


def _speakers(record: dict[str, Any], players: tuple[tuple[str, ...], ...]) -> list[str]:
    """How the sentences name each player: as the game named its seat (the record's `names`), or by
    colour for a record without names ("Red", "Red and Green")."""
    names = record.get("names")
    out = []
    for i, colours in enumerate(players):
        name = names[i] if isinstance(names, list) and i < len(names) else None
        fallback = " and ".join(colour_name(c) for c in colours)
        out.append(name if isinstance(name, str) and name else fallback)
    return out
