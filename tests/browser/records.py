"""Finished game records made with the engine and fair dice, for the replay and verify tests."""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.fair import FairDice

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


def play_local_game(finish: bool = True, ruleset: str = "classic", options: dict | None = None):
    """A pass & play game (default: classic quick game, 2 tokens each) played through games.actions,
    always with the first legal move: to the end if `finish`, else for six actions."""
    from games import engine
    from games.actions import Actor, SeatSpec, create_game, do_move, do_roll, engine_state
    from games.models import Game

    actor = Actor(None, "owner-key")
    game = create_game(
        actor,
        "local",
        "classic",
        {"tokens": 2},
        [SeatSpec("local", "Alice"), SeatSpec("local", "Bob")],
    )
    for _ in range(5000 if finish else 6):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            break
        state = engine_state(game)
        if engine.can_roll(state):
            do_roll(game.pk, actor, None)
        else:
            move = engine.legal_moves(state)[0]
            do_move(game.pk, actor, None, move.colour, move.index, move.die, move.pair)
    return Game.objects.get(pk=game.pk)
