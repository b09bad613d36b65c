"""places with hold (docs/rules.md "Option hold"). Yellow's progress p is on square (26 + p) % 52:
yellow 42 is on square 16, yellow 48 on square 22."""

import pytest

from games import engine
from games.engine.positions import position
from games.engine.state import MOVE, ROLL, IllegalMoveError

YARD4 = [-1, -1, -1, -1]
HOLD = {"hold": True}


def at(tokens, **kwargs):
    return position("places", tokens, options=HOLD, **kwargs)


def legal(state):
    return {(m.colour, m.index, m.die, m.pair, m.to) for m in engine.legal_moves(state)}


def rolled(state, die):
    return engine.roll(state, [die])[0]


def test_a_six_goes_into_the_hand_and_owes_a_roll_that_can_wait():
    s = rolled(at({"red": YARD4, "yellow": YARD4}), 6)
    assert (s.awaiting, s.dice, s.rolls) == (MOVE, (6,), 1)
    assert engine.can_roll(s)
    s = rolled(s, 3)  # taking the owed roll now
    assert (s.awaiting, s.dice, s.rolls) == (MOVE, (6, 3), 0)
    assert legal(s) == {("red", i, 6, False, 0) for i in range(4)}
    with pytest.raises(IllegalMoveError):
        engine.roll(s, [2])  # no roll owed any more


def test_numbers_are_used_in_any_order_and_the_die_must_be_named():
    s = rolled(rolled(at({"red": [10, -1, -1, -1], "yellow": YARD4}), 6), 3)
    assert legal(s) == {
        ("red", 0, 6, False, 16),
        ("red", 0, 3, False, 13),
        *{("red", i, 6, False, 0) for i in (1, 2, 3)},
    }
    with pytest.raises(IllegalMoveError):
        engine.move(s, "red", 0)
    s, _ = engine.move(s, "red", 0, die=3)
    assert (s.dice, s.awaiting) == ((6,), MOVE)
    s, _ = engine.move(s, "red", 1, die=6)
    assert s.tokens[0] == (13, 0, -1, -1)
    assert (s.turn, s.awaiting, s.dice) == (1, ROLL, ())


def test_an_owed_roll_is_awaited_when_no_number_can_be_used():
    s = rolled(at({"red": [54, 56, 56, 56], "yellow": YARD4}), 6)
    assert (s.turn, s.awaiting, s.dice, s.rolls) == (0, ROLL, (6,), 0)
    s, events = engine.roll(s, [3])
    assert (s.turn, s.awaiting, s.dice) == (1, ROLL, ())  # 6 and 3 both unusable: lost
    assert ("dice_lost", (6, 3)) in [(e.kind, e.dice) for e in events]


def test_a_six_that_captures_owes_two_rolls():
    s = rolled(at({"red": [10, -1, -1, -1], "yellow": [42, -1, -1, -1]}), 6)
    s, _ = engine.move(s, "red", 0, die=6)
    assert s.tokens == ((16, -1, -1, -1), (-1, -1, -1, -1))
    assert (s.awaiting, s.dice, s.rolls) == (ROLL, (), 1)  # one awaited plus one more


def test_bringing_a_token_home_owes_a_roll():
    s = rolled(at({"red": [53, 5, -1, -1], "yellow": YARD4}), 3)
    s, _ = engine.move(s, "red", 0)
    assert (s.turn, s.awaiting, s.rolls) == (0, ROLL, 0)


def test_three_sixes_undo_every_six_move_of_the_run_latest_first():
    s = at({"red": [10, -1, -1, -1], "yellow": [42, 48, -1, -1]})
    s = rolled(s, 6)  # run 1
    s = rolled(s, 2)  # run broken: hand 6, 2
    s, _ = engine.move(s, "red", 0, die=6)  # 16, captures yellow 0 (before the run: stays)
    s = rolled(s, 6)  # a new run: 1
    s, _ = engine.move(s, "red", 0, die=6)  # 22, captures yellow 1
    s, _ = engine.move(s, "red", 0, die=2)  # 24 with another number
    s = rolled(s, 6)  # run 2
    s, _ = engine.move(s, "red", 1, die=6)  # out
    assert s.tokens == ((24, 0, -1, -1), (-1, -1, -1, -1))
    s, events = engine.roll(s, [6])  # run 3
    assert s.tokens == ((16, -1, -1, -1), (-1, 48, -1, -1))
    assert (s.turn, s.awaiting, s.dice, s.rolls) == (1, ROLL, (), 0)
    assert [e.kind for e in events if e.kind in ("undone", "restored")] == [
        "undone",
        "undone",
        "restored",
    ]


def test_three_sixes_lose_the_hand():
    s = rolled(rolled(rolled(at({"red": YARD4, "yellow": YARD4}), 6), 6), 6)
    assert (s.turn, s.dice, s.tokens[0]) == (1, (), (-1, -1, -1, -1))


def test_hold_and_pairs_combine():
    s = position(
        "places", {"red": [3, 3, -1, -1], "yellow": YARD4}, options={"hold": True, "pairs": True}
    )
    s = rolled(rolled(s, 6), 4)
    assert legal(s) == {
        *{("red", i, 6, True, 6) for i in (0, 1)},
        *{("red", i, 4, True, 5) for i in (0, 1)},
        *{("red", i, 6, False, 0) for i in (2, 3)},
    }
