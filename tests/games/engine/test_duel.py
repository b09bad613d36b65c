"""duel (docs/rules.md "Duel"): red on corner 0 v blue on corner 2 (blue's progress p stands on
square (26 + p) % 52)."""

import pytest

from games import engine
from games.engine.positions import position
from games.engine.state import FINISHED, MOVE, ROLL, MalformedError

YARD4 = [-1, -1, -1, -1]


def legal(state):
    return {(m.colour, m.index, m.die, m.pair, m.to) for m in engine.legal_moves(state)}


def rolled(state, die):
    return engine.roll(state, [die])[0]


@pytest.mark.parametrize(
    "players",
    [[["blue"], ["red"]], [["red"], ["yellow"]], [["red"], ["blue"], ["green"]], [["red", "blue"]]],
)
def test_duel_is_exactly_red_then_blue(players):
    with pytest.raises(MalformedError):
        engine.new_game("duel", players)


def test_blue_comes_out_on_square_26():
    s = rolled(position("duel", {"red": [23, -1, -1, -1], "blue": YARD4}, turn=1), 6)
    s, _ = engine.move(s, "blue", 0)
    s, _ = engine.move(rolled(s, 3), "blue", 0)  # blue 3 = square 29
    s, _ = engine.roll(s, [3])  # red 23 -> 26 would be blue's start: safe anyway
    assert legal(s) == {("red", 0, 3, False, 26)}


def test_a_capture_sends_the_whole_stack_home_and_earns_nothing():
    s = rolled(position("duel", {"red": [27, -1, -1, -1], "blue": [3, 3, -1, -1]}), 2)
    s, _ = engine.move(s, "red", 0)
    assert s.tokens == ((29, -1, -1, -1), (-1, -1, -1, -1))
    assert (s.turn, s.awaiting) == (1, ROLL)


def test_no_capture_on_a_safe_square():
    s = rolled(position("duel", {"red": [23, -1, -1, -1], "blue": [0, 0, -1, -1]}), 3)
    s, _ = engine.move(s, "red", 0)
    assert s.tokens[1] == (0, 0, -1, -1)


def test_reaching_home_earns_nothing():
    s = rolled(position("duel", {"red": [53, 4, -1, -1], "blue": YARD4}), 3)
    s, _ = engine.move(s, "red", 0)
    assert (s.turn, s.tokens[0][0]) == (1, 56)


def test_a_six_earns_a_roll_used_or_not():
    s, _ = engine.move(
        rolled(position("duel", {"red": [10, -1, -1, -1], "blue": YARD4}), 6), "red", 0
    )
    assert (s.turn, s.awaiting) == (0, ROLL)
    s = rolled(position("duel", {"red": [51, 56, 56, 56], "blue": YARD4}), 6)
    assert (s.turn, s.awaiting) == (0, ROLL)


def test_third_six_ends_the_turn_without_a_move():
    s = position("duel", {"red": [10, -1, -1, -1], "blue": YARD4}, memo=(2, ()))
    s = rolled(s, 6)
    assert (s.turn, s.awaiting, s.tokens[0]) == (1, ROLL, (10, -1, -1, -1))
    s = position("duel", {"red": [10, -1, -1, -1], "blue": YARD4}, memo=(1, ()))
    assert rolled(s, 6).awaiting == MOVE


def test_first_with_all_four_home_wins():
    s = rolled(position("duel", {"red": [12, 20, -1, -1], "blue": [56, 56, 56, 55]}, turn=1), 1)
    s, _ = engine.move(s, "blue", 3)
    assert (s.status, s.places, s.turn) == (FINISHED, (1, 0), 1)
