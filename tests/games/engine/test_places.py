"""places without options (docs/rules.md "Places"): every token captured, three 6s undo all three,
play on until every place is decided. Yellow's progress p stands on square (26 + p) % 52."""

from games import engine
from games.engine.onedie import default_players
from games.engine.positions import position
from games.engine.state import FINISHED, MOVE, ROLL

YARD4 = [-1, -1, -1, -1]


def rolled(state, die):
    return engine.roll(state, [die])[0]


def test_default_seats():
    assert default_players(2) == (("red",), ("yellow",))
    assert default_players(4) == (("red",), ("green",), ("yellow",), ("blue",))


def test_landing_captures_every_rival_token_and_earns_a_roll():
    s = rolled(position("places", {"red": [27, -1, -1, -1], "yellow": [3, 3, -1, -1]}), 2)
    s, events = engine.move(s, "red", 0)
    assert s.tokens == ((29, -1, -1, -1), (-1, -1, -1, -1))
    assert (s.turn, s.awaiting) == (0, ROLL)
    assert [e.kind for e in events].count("captured") == 2


def test_three_sixes_undo_both_moves_and_restore_the_captured():
    s = position("places", {"red": [10, -1, -1, -1], "yellow": [42, -1, -1, -1]})
    s, _ = engine.move(rolled(s, 6), "red", 0)  # 16 = yellow's square 16: captured
    assert s.tokens == ((16, -1, -1, -1), (-1, -1, -1, -1))
    s, _ = engine.move(rolled(s, 6), "red", 1)  # red1 out
    s, events = engine.roll(s, [6])
    assert s.tokens == ((10, -1, -1, -1), (42, -1, -1, -1))
    assert (s.turn, s.awaiting) == (1, ROLL)
    kinds = [e.kind for e in events]
    assert kinds.count("undone") == 2 and kinds.count("restored") == 1


def test_an_unused_six_counts_towards_three():
    s = position("places", {"red": [55, 56, 56, 56], "yellow": YARD4})
    s = rolled(rolled(s, 6), 6)
    assert (s.turn, s.awaiting) == (0, ROLL)
    s = rolled(s, 6)
    assert (s.turn, s.tokens[0]) == (1, (55, 56, 56, 56))


def test_the_finisher_takes_the_next_place_earns_no_roll_and_is_skipped():
    tokens = {"red": [56, 56, 56, 50], "green": [5, -1, -1, -1], "yellow": [7, -1, -1, -1]}
    s = rolled(position("places", tokens), 6)
    s, _ = engine.move(s, "red", 3)
    assert (s.places, s.turn, s.awaiting, s.status) == ((0,), 1, ROLL, "playing")
    s = rolled(s, 1)
    s, _ = engine.move(s, "green", 0)
    s = rolled(s, 1)
    s, _ = engine.move(s, "yellow", 0)
    assert s.turn == 1  # red is skipped


def test_when_one_player_is_left_it_takes_the_last_place_and_the_game_ends():
    tokens = {"red": [56] * 4, "green": [56, 56, 56, 55], "yellow": [7, -1, -1, -1]}
    s = rolled(position("places", tokens, turn=1, places=(0,)), 1)
    s, _ = engine.move(s, "green", 3)
    assert (s.status, s.places, s.turn, s.awaiting, s.dice) == (FINISHED, (0, 1, 2), 1, ROLL, ())
    assert engine.legal_moves(s) == ()


def test_two_players_the_first_home_decides_both_places():
    s = rolled(position("places", {"red": [20, -1, -1, -1], "yellow": [56, 56, 56, 54]}, turn=1), 2)
    s, _ = engine.move(s, "yellow", 3)
    assert (s.status, s.places) == (FINISHED, (1, 0))


def test_a_capture_that_is_not_a_six_keeps_a_run_of_sixes_reset():
    s = position("places", {"red": [27, -1, -1, -1], "yellow": [3, -1, -1, -1]}, memo=(0, ()))
    s, _ = engine.move(rolled(s, 2), "red", 0)
    assert (s.turn, s.memo[0]) == (0, 0)
    assert rolled(s, 6).awaiting == MOVE
