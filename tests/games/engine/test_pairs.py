"""places with pairs (docs/rules.md "Option pairs"). Red's progress is its square number; yellow's
progress p stands on square (26 + p) % 52, green's on (13 + p) % 52. Square 10 is unsafe: yellow 36,
green 49."""

import pytest

from games import engine
from games.engine.positions import position
from games.engine.state import ROLL, IllegalMoveError

YARD4 = [-1, -1, -1, -1]
PAIRS = {"pairs": True}


def at(tokens, **kwargs):
    return position("places", tokens, options=PAIRS, **kwargs)


def legal(state):
    return {(m.colour, m.index, m.die, m.pair, m.to) for m in engine.legal_moves(state)}


def rolled(state, die):
    return engine.roll(state, [die])[0]


def test_a_locked_pair_moves_half_an_even_roll_together():
    s = rolled(at({"red": [3, 3, -1, -1], "yellow": YARD4}), 4)
    assert legal(s) == {("red", 0, 4, True, 5), ("red", 1, 4, True, 5)}
    s, _ = engine.move(s, "red", 1, pair=True)
    assert s.tokens[0] == (5, 5, -1, -1)


def test_a_locked_pair_can_not_use_an_odd_roll():
    s = rolled(at({"red": [3, 3, -1, -1], "yellow": YARD4}), 3)
    assert (s.turn, s.awaiting) == (1, ROLL)


def test_a_locked_pair_can_not_move_alone():
    s = rolled(at({"red": [3, 3, -1, -1], "yellow": YARD4}), 4)
    with pytest.raises(IllegalMoveError):
        engine.move(s, "red", 0)


def test_on_a_safe_square_a_pair_may_split_by_the_full_roll():
    s = rolled(at({"red": [8, 8, -1, -1], "yellow": YARD4}), 3)
    assert legal(s) == {("red", 0, 3, False, 11), ("red", 1, 3, False, 11)}


def test_three_tokens_make_a_pair_and_a_free_single_any_of_the_three():
    s = rolled(at({"red": [3, 3, 3, -1], "yellow": YARD4}), 4)
    assert legal(s) == {("red", i, 4, False, 7) for i in range(3)} | {
        ("red", i, 4, True, 5) for i in range(3)
    }
    s, _ = engine.move(s, "red", 2, pair=True)  # partner: the lowest-indexed other token, red 0
    assert s.tokens[0] == (5, 3, 5, -1)


def test_four_tokens_are_two_locked_pairs():
    s = rolled(at({"red": [3, 3, 3, 3], "yellow": YARD4}), 2)
    assert legal(s) == {("red", i, 2, True, 4) for i in range(4)}
    s = rolled(at({"red": [3, 3, 3, 3], "yellow": YARD4}), 5)
    assert s.turn == 1


def test_a_pair_in_the_home_column_is_locked_and_needs_the_exact_count():
    s = rolled(at({"red": [52, 52, -1, -1], "yellow": YARD4}), 3)
    assert s.turn == 1
    s = rolled(at({"red": [52, 52, 56, 56], "yellow": YARD4}), 6)
    assert legal(s) == {("red", 0, 6, True, 55), ("red", 1, 6, True, 55)}
    s = rolled(at({"red": [54, 54, -1, -1], "yellow": YARD4}), 4)
    s, _ = engine.move(s, "red", 0, pair=True)
    assert s.tokens[0] == (56, 56, -1, -1)
    assert (s.turn, s.awaiting) == (0, ROLL)  # home earns a roll


def test_a_single_can_not_pass_a_rival_pair_on_an_unsafe_square():
    s = rolled(at({"red": [7, -1, -1, -1], "yellow": [36, 36, -1, -1]}), 5)
    assert s.turn == 1
    s = rolled(at({"red": [7, -1, -1, -1], "yellow": [36, 36, -1, -1]}), 3)
    assert legal(s) == {("red", 0, 3, False, 10)}  # it may land there
    s, _ = engine.move(s, "red", 0)
    assert s.tokens == ((10, -1, -1, -1), (36, 36, -1, -1))  # a single never captures a pair


def test_a_single_that_landed_on_a_rival_pair_waits_until_it_moves_on():
    s = rolled(at({"red": [10, 2, -1, -1], "yellow": [36, 36, -1, -1]}), 2)
    assert legal(s) == {("red", 1, 2, False, 4)}


def test_a_single_passes_a_rival_pair_on_a_safe_square_and_its_own_pairs():
    s = rolled(at({"red": [5, -1, -1, -1], "yellow": [34, 34, -1, -1]}), 5)  # yellow pair on 8
    assert legal(s) == {("red", 0, 5, False, 10)}
    s = rolled(at({"red": [5, 5, 3, -1], "yellow": YARD4}), 4)
    assert ("red", 2, 4, False, 7) in legal(s)


def test_a_pair_passes_and_captures_a_rival_pair_and_earns_a_roll():
    s = rolled(at({"red": [7, 7, -1, -1], "yellow": [30, 36, 36, 36]}), 6)
    s, _ = engine.move(s, "red", 0, pair=True)
    assert s.tokens == ((10, 10, -1, -1), (30, -1, -1, -1))
    assert (s.turn, s.awaiting) == (0, ROLL)


def test_a_pair_does_not_capture_a_single():
    s = rolled(at({"red": [9, 9, -1, -1], "yellow": [36, -1, -1, -1]}), 2)
    s, _ = engine.move(s, "red", 0, pair=True)
    assert s.tokens == ((10, 10, -1, -1), (36, -1, -1, -1))
    assert s.turn == 1


def test_a_third_colours_single_sitting_with_a_pair_is_captured_the_pair_stays():
    tokens = {"red": [7, -1, -1, -1], "green": [49, -1, -1, -1], "yellow": [36, 36, -1, -1]}
    s = rolled(at(tokens), 3)
    s, _ = engine.move(s, "red", 0)
    assert s.tokens == ((10, -1, -1, -1), (-1, -1, -1, -1), (36, 36, -1, -1))
    assert (s.turn, s.awaiting) == (0, ROLL)


def test_a_single_joining_its_own_sitting_single_makes_a_pair():
    s = rolled(at({"red": [10, 7, -1, -1], "yellow": [36, 36, -1, -1]}), 3)
    s, _ = engine.move(s, "red", 1)
    assert s.tokens == ((10, 10, -1, -1), (36, 36, -1, -1))


def test_yard_tokens_come_out_alone_on_a_six():
    s = rolled(at({"red": YARD4, "yellow": YARD4}), 6)
    assert legal(s) == {("red", i, 6, False, 0) for i in range(4)}
