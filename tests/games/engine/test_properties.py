"""Properties of random one-die games (hypothesis picks the seed, the rule set and its options)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.board import SAFE_SQUARES, SQUARE
from games.engine.onedie import corners_of
from games.engine.places import VARIANT as PLACES
from games.engine.record_format import replay_record
from games.engine.state import FINISHED, MOVE

SEATS = {
    2: [["red"], ["yellow"]],
    3: [["red"], ["green"], ["yellow"]],
    4: [["red"], ["green"], ["yellow"], ["blue"]],
}

games = st.one_of(
    st.tuples(st.just("classic"), st.sampled_from([2, 3, 4]), st.sampled_from([{}, {"tokens": 2}])),
    st.tuples(st.just("duel"), st.just(2), st.just({})),
    st.tuples(
        st.just("places"),
        st.sampled_from([2, 3, 4]),
        st.sampled_from([{}, {"pairs": True}, {"hold": True}, {"pairs": True, "hold": True}]),
    ),
)


def players_for(name, count):
    return [["red"], ["blue"]] if name == "duel" else SEATS[count]


def play(name, count, options, seed, max_actions):
    """Random legal play; returns (states, actions as a record holds them, events per action)."""
    rng = random.Random(seed)
    state = engine.new_game(name, players_for(name, count), options)
    states, actions, events = [state], [], []
    while not state.finished and len(actions) < max_actions:
        moves = engine.legal_moves(state)
        if engine.can_roll(state) and (not moves or rng.random() < 0.3):
            die = rng.randint(1, 6)
            actions.append({"roll": [die]})
            state, happened = engine.roll(state, [die])
        else:
            chosen = rng.choice(moves)
            move = {"token": list(chosen.token), "die": chosen.die, "pair": chosen.pair}
            actions.append({"move": move})
            state, happened = engine.move(
                state, chosen.colour, chosen.index, chosen.die, chosen.pair
            )
        states.append(state)
        events.append(happened)
    return states, actions, events


def corners(state):
    rules = engine.ruleset(state.ruleset)
    return corners_of(rules.VARIANT, state.colours)


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 2**32))
def test_random_play_keeps_the_invariants(game, seed):
    name, count, options = game
    states, actions, events = play(name, count, options, seed, max_actions=300)
    first = states[0]
    for before, after, happened in zip(states[:-1], states[1:], events, strict=True):
        assert [len(t) for t in after.tokens] == [len(t) for t in first.tokens]
        assert all(-1 <= p <= 56 for t in after.tokens for p in t)
        assert set(after.places) <= set(range(count)) and len(set(after.places)) == len(
            after.places
        )
        for event in happened:
            if event.kind == "captured":
                ci = after.colours.index(event.token[0])
                assert SQUARE[corners(after)[ci]][event.frm] not in SAFE_SQUARES
        if any(e.kind == "turn_passed" for e in happened) and after.status != FINISHED:
            expected = (before.turn + 1) % count
            while expected in after.places:
                expected = (expected + 1) % count
            assert after.turn == expected
        if after.awaiting == MOVE and after.status != FINISHED:
            assert engine.legal_moves(after), "a move is awaited only when one exists"
        if name == "duel" or (name == "places" and not options.get("pairs")):
            occupied = {}
            for ci, progresses in enumerate(after.tokens):
                for p in progresses:
                    if 0 <= p <= 50:
                        square = SQUARE[corners(after)[ci]][p]
                        if square not in SAFE_SQUARES:
                            assert occupied.setdefault(square, ci) == ci, (
                                "two colours on an unsafe square"
                            )
    record = {
        "format": "ludopat-record/1",
        "ruleset": name,
        "options": options,
        "players": players_for(name, count),
        "actions": actions,
    }
    assert replay_record(record) == states[-1]


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 2**32))
def test_every_finished_game_has_a_full_order_of_places(game, seed):
    name, count, options = game
    states, _, _ = play(name, count, options, seed, max_actions=50_000)
    final = states[-1]
    assert final.status == FINISHED
    assert sorted(final.places) == list(range(count))
    assert (final.awaiting, final.dice, final.rolls) == ("roll", (), 0)
    winner = final.places[0]
    assert all(p == 56 for p in final.tokens[winner])
    if name == "places":
        for player in final.places[:-1]:
            assert all(p == 56 for p in final.tokens[player])
    assert PLACES.play_for_every_place
