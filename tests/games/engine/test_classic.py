"""classic (docs/rules.md "Classic"): perft-style positions, each with its roll, the exact set of
legal moves and the position a move leads to. Red plays from corner 0 (its progress is the square
number), yellow from corner 2 (progress p stands on square (26 + p) % 52), green from corner 1."""

import pytest

from games import engine
from games.engine.positions import position
from games.engine.state import FINISHED, MOVE, ROLL, IllegalMoveError, MalformedError

YARD4 = [-1, -1, -1, -1]


def legal(state):
    return {(m.colour, m.index, m.die, m.pair, m.to) for m in engine.legal_moves(state)}


def rolled(state, die):
    return engine.roll(state, [die])[0]


def test_yard_tokens_come_out_only_on_a_six_to_progress_0():
    s = rolled(position("classic", {"red": YARD4, "yellow": YARD4}), 6)
    assert legal(s) == {("red", i, 6, False, 0) for i in range(4)}
    s = rolled(position("classic", {"red": YARD4, "yellow": YARD4}), 5)
    assert (s.turn, s.awaiting, s.dice) == (1, ROLL, ())  # nothing can move: passes at once


def test_a_token_moves_the_full_number_and_never_past_home():
    s = rolled(position("classic", {"red": [53, 10, -1, 56], "yellow": YARD4}), 4)
    assert legal(s) == {("red", 1, 4, False, 14)}
    s = rolled(position("classic", {"red": [53, 10, -1, 56], "yellow": YARD4}), 3)
    assert legal(s) == {("red", 0, 3, False, 56), ("red", 1, 3, False, 13)}


def test_a_token_reaching_home_exactly_earns_a_roll():
    s = rolled(position("classic", {"red": [53, 10, -1, -1], "yellow": YARD4}), 3)
    s, events = engine.move(s, "red", 0)
    assert s.tokens[0] == (56, 10, -1, -1)
    assert (s.turn, s.awaiting) == (0, ROLL)
    assert [e.kind for e in events].count("bonus_roll") == 1


def test_an_unusable_six_still_earns_a_roll():
    s = rolled(position("classic", {"red": [51, 55, 56, 56], "yellow": YARD4}), 6)
    assert (s.turn, s.awaiting, s.dice, s.memo[0]) == (0, ROLL, (), 1)


def test_an_unusable_other_number_passes_the_turn():
    s = rolled(position("classic", {"red": [55, 56, 56, 56], "yellow": YARD4}), 2)
    assert (s.turn, s.awaiting) == (1, ROLL)


def test_a_move_is_awaited_before_the_next_roll():
    s = rolled(position("classic", {"red": [5, -1, -1, -1], "yellow": YARD4}), 2)
    with pytest.raises(IllegalMoveError):
        engine.roll(s, [3])


def test_landing_on_a_lone_rival_captures_it_and_earns_a_roll():
    s = rolled(position("classic", {"red": [28, -1, -1, -1], "yellow": [5, -1, -1, -1]}), 3)
    s, events = engine.move(s, "red", 0)
    assert s.tokens == ((31, -1, -1, -1), (-1, -1, -1, -1))
    assert (s.turn, s.awaiting) == (0, ROLL)
    assert ("captured", ("yellow", 0)) in [(e.kind, e.token) for e in events]


def test_a_pair_can_not_be_captured_the_rival_shares_the_square():
    s = rolled(position("classic", {"red": [28, -1, -1, -1], "yellow": [5, 5, -1, -1]}), 3)
    s, _ = engine.move(s, "red", 0)
    assert s.tokens == ((31, -1, -1, -1), (5, 5, -1, -1))
    assert (s.turn, s.awaiting) == (1, ROLL)  # no capture, no 6: no bonus


def test_landing_on_a_pair_and_a_single_captures_only_the_single():
    tokens = {"red": [28, -1, -1, -1], "green": [18, -1, -1, -1], "yellow": [5, 5, -1, -1]}
    s, _ = engine.move(rolled(position("classic", tokens), 3), "red", 0)
    assert s.tokens == ((31, -1, -1, -1), (-1, -1, -1, -1), (5, 5, -1, -1))


@pytest.mark.parametrize(("red_from", "yellow_at"), [(31, 8), (23, 0), (5, 34), (18, 47)])
def test_no_capture_on_a_safe_square(red_from, yellow_at):
    # squares 34, 26, 8 (red's own star) and 21 (green's star, green not playing) are all safe
    s = rolled(
        position("classic", {"red": [red_from, -1, -1, -1], "yellow": [yellow_at, -1, -1, -1]}), 3
    )
    s, _ = engine.move(s, "red", 0)
    assert s.tokens[1] == (yellow_at, -1, -1, -1)
    assert s.turn == 1


def test_passing_over_a_rival_does_nothing():
    s = rolled(position("classic", {"red": [29, -1, -1, -1], "yellow": [5, -1, -1, -1]}), 4)
    s, _ = engine.move(s, "red", 0)
    assert s.tokens == ((33, -1, -1, -1), (5, -1, -1, -1))


def test_a_six_that_captures_earns_one_roll_not_two():
    s = rolled(position("classic", {"red": [25, -1, -1, -1], "yellow": [5, -1, -1, -1]}), 6)
    s, events = engine.move(s, "red", 0)
    assert (s.turn, s.awaiting, s.rolls) == (0, ROLL, 0)
    assert [e.kind for e in events].count("bonus_roll") == 1


def test_own_tokens_share_any_square():
    s = rolled(position("classic", {"red": [3, 5, -1, -1], "yellow": YARD4}), 2)
    s, _ = engine.move(s, "red", 0)
    assert s.tokens[0] == (5, 5, -1, -1)


def test_third_six_is_cancelled_and_the_first_two_moves_stand():
    s = position("classic", {"red": [10, -1, -1, -1], "yellow": YARD4})
    for _ in range(2):
        s = rolled(s, 6)
        s, _ = engine.move(s, "red", 0)
    assert s.tokens[0] == (22, -1, -1, -1)
    s, events = engine.roll(s, [6])
    assert s.tokens[0] == (22, -1, -1, -1)
    assert (s.turn, s.awaiting, s.dice) == (1, ROLL, ())
    assert "three_sixes" in [e.kind for e in events]


def test_another_number_resets_the_run_of_sixes():
    s = position("classic", {"red": [28, -1, -1, -1], "yellow": [16, -1, -1, -1]})
    s, _ = engine.move(rolled(s, 6), "red", 0)  # 34
    s, _ = engine.move(rolled(s, 6), "red", 0)  # 40
    s, _ = engine.move(rolled(s, 2), "red", 0)  # 42 = yellow's square: capture, bonus
    assert (s.turn, s.tokens[1][0]) == (0, -1)
    s = rolled(s, 6)  # the run is 1 again, not 3
    assert (s.turn, s.awaiting) == (0, MOVE)


def test_first_home_wins_the_others_ranked_by_distance_ties_by_turn_order_after_the_winner():
    tokens = {
        "red": [10, -1, -1, -1],
        "green": [56, 56, 56, 53],
        "yellow": [4, 6, -1, -1],
        "blue": [20, -1, -1, -1],
    }
    s = rolled(position("classic", tokens, turn=1), 3)
    s, events = engine.move(s, "green", 3)
    # green won; blue 20; yellow 10 and red 10 tie: yellow moves sooner after green
    assert s.places == (1, 3, 2, 0)
    assert (s.status, s.turn, s.awaiting, s.dice, s.rolls) == (FINISHED, 1, ROLL, (), 0)
    assert engine.legal_moves(s) == ()
    assert events[-1].kind == "game_over"
    with pytest.raises(IllegalMoveError):
        engine.roll(s, [3])


def test_the_winning_six_ends_the_game_instead_of_a_bonus_roll():
    s = rolled(position("classic", {"red": [56, 56, 56, 50], "yellow": [-1, 3, -1, -1]}), 6)
    s, _ = engine.move(s, "red", 3)
    assert s.status == FINISHED and s.places == (0, 1)


def test_quick_game_two_tokens_each_two_home_wins():
    s = engine.new_game("classic", [["red"], ["yellow"]], {"tokens": 2})
    assert s.tokens == ((-1, -1), (-1, -1))
    s = position("classic", {"red": [56, 54], "yellow": [3, -1]}, options={"tokens": 2})
    s, _ = engine.move(rolled(s, 2), "red", 1)
    assert s.status == FINISHED and s.places == (0, 1)


@pytest.mark.parametrize(
    "players",
    [
        [["red"]],
        [["red"], ["green"], ["yellow"], ["blue"], ["red"]],
        [["red"], ["red"]],
        [["red"], ["purple"]],
        [["red", "green"], ["yellow"]],
        [[], ["yellow"]],
    ],
)
def test_players_must_be_2_to_4_distinct_colours_one_each(players):
    with pytest.raises(MalformedError):
        engine.new_game("classic", players)


def test_any_distinct_colours_in_any_order_may_play():
    s = engine.new_game("classic", [["blue"], ["green"]])
    assert s.colours == ("blue", "green")


@pytest.mark.parametrize(
    "options", [{"tokens": 3}, {"tokens": True}, {"pairs": True}, {"tokens": "4"}]
)
def test_bad_options_are_malformed(options):
    with pytest.raises(MalformedError):
        engine.new_game("classic", [["red"], ["yellow"]], options)


def test_a_refusal_names_the_token_as_the_board_labels_it():
    # The board labels tokens 1 to 4; the engine counts from 0. Red's third token is "red 3".
    s = position("classic", {"red": [5, 9, -1, -1], "yellow": YARD4}, dice=(3,))
    with pytest.raises(IllegalMoveError, match="red 3 can't move"):
        engine.move(s, "red", 2)
    with pytest.raises(IllegalMoveError, match="red has no token 5"):
        engine.move(s, "red", 4)
