"""Finished game records made with the engine and fair dice, for the replay and verify tests."""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.fair import FairDice
from tests.factories import play_local_game

__all__ = ["SEED", "play_local_game", "play_record"]  # play_local_game: tests/factories.py's

SEED = "0123456789abcdef" * 4


def play_record(
    ruleset: str = "classic",
    players: list[list[str]] | None = None,
    options: dict[str, Any] | None = None,
    server_seed: str = SEED,
    client_seed: str = "alice|bob",
    max_actions: int = 5000,
) -> dict[str, Any]:
    """A whole game with fair dice, always the first legal move, as a record (docs/record.md)."""
    players = players or {
        "duel": [["red"], ["blue"]],
        "twodice": [["red", "green"], ["yellow", "blue"]],
    }.get(ruleset, [["red"], ["yellow"]])
    options = dict(options or ({"tokens": 2} if ruleset == "classic" else {}))
    dice = FairDice(server_seed, client_seed)
    rules = engine.ruleset(ruleset)
    state = engine.new_game(ruleset, players, options)
    actions: list[dict[str, Any]] = []
    while not state.finished:
        if len(actions) >= max_actions:
            raise RuntimeError("the game did not finish")
        if engine.can_roll(state) and (
            state.awaiting == engine.ROLL or not engine.legal_moves(state)
        ):
            rolled = dice.roll(rules.DICE)
            state, _ = engine.roll(state, rolled)
            actions.append({"roll": rolled})
        else:
            move = engine.legal_moves(state)[0]
            state, _ = engine.apply_move(state, move)
            body: dict[str, Any] = {"token": [move.colour, move.index], "die": move.die}
            if move.pair:
                body["pair"] = True
            actions.append({"move": body})
    return {
        "format": "ludopat-record/1",
        "ruleset": ruleset,
        "options": options,
        "players": players,
        "names": ["Alice", "Bob"][: len(players)] + ["Carol", "Dan"][: max(0, len(players) - 2)],
        "actions": actions,
        "fair": dice.fair_field(),
        "result": {"places": list(state.places)},
    }
