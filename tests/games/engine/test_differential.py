"""The engine against oracle.py, an independent naive reading of docs/rules.md, in random games.

After each roll and move both must agree on the whole state (docs/record.md's JSON) and on the set of
legal moves. Dice are loaded towards 6 (and double 6) so that three-sixes, bonus rolls, yard exits and
long twodice hands come up often.
"""

from __future__ import annotations

import json
import random

import pytest

from games import engine

from .oracle import Oracle

SETUPS = [
    ("classic", [["red"], ["yellow"]], {}),
    ("classic", [["red"], ["green"], ["yellow"], ["blue"]], {}),
    ("classic", [["blue"], ["red"], ["green"]], {"tokens": 2}),
    ("duel", [["red"], ["blue"]], {}),
    ("places", [["red"], ["green"], ["yellow"], ["blue"]], {}),
    ("places", [["red"], ["yellow"]], {"pairs": True}),
    ("places", [["red"], ["green"], ["yellow"], ["blue"]], {"pairs": True}),
    ("places", [["red"], ["green"], ["yellow"]], {"hold": True}),
    ("places", [["green"], ["blue"], ["red"], ["yellow"]], {"pairs": True, "hold": True}),
    ("twodice", [["red", "green"], ["yellow", "blue"]], {}),
    ("twodice", [["yellow", "blue"], ["red", "green"]], {}),
]


def _die(rng: random.Random) -> int:
    return 6 if rng.random() < 0.3 else rng.randint(1, 6)


def _legal_set(moves) -> set[str]:
    return {json.dumps(m, sort_keys=True) for m in moves}


def play_both(ruleset, players, options, seed, max_actions=3000):
    rng = random.Random(seed)
    state = engine.new_game(ruleset, players, options)
    oracle = Oracle(ruleset, players, options)
    history = []
    for _ in range(max_actions):
        ours = state.to_json(legal=engine.legal_moves(state))
        theirs = oracle.state()
        legal = ours.pop("legal")
        context = f"seed {seed}, after {history[-6:]}"
        assert ours == theirs, context
        assert _legal_set(legal) == _legal_set(oracle.legal()), context
        if state.status == "finished":
            return state
        want_roll = engine.can_roll(state) and (not legal or rng.random() < 0.3)
        if want_roll:
            if ruleset == "twodice":
                dice = [6, 6] if rng.random() < 0.15 else [_die(rng), _die(rng)]
            else:
                dice = [_die(rng)]
            state, _ = engine.roll(state, dice)
            oracle.roll(dice)
            history.append({"roll": dice})
        else:
            choice = rng.choice(legal)
            colour, index = choice["token"]
            state, _ = engine.move(state, colour, index, choice["die"], choice["pair"])
            oracle.move(choice["token"], choice["die"], choice["pair"])
            history.append({"move": choice})
    return state


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s[0]}-{len(s[1])}-{s[2]}")
def test_engine_agrees_with_the_oracle(setup):
    ruleset, players, options = setup
    games = 10 if ruleset == "twodice" else 30  # the oracle's brute-force twodice search is slow
    finished = 0
    for seed in range(games):
        state = play_both(ruleset, players, options, seed)
        finished += state.status == "finished"
    # Nearly every random game runs to its end, so the end rules are compared too.
    assert finished >= games - 2
