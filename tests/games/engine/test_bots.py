"""Bots (games/engine/bots): every level plays only legal moves in every rule set and option, greedy
follows its documented order of wishes, strong beats random, and strong plans a whole twodice hand.

Red plays from corner 0 (its progress is the square number), yellow from corner 2 (progress p stands on
square (26 + p) % 52).
"""

import random

import pytest

from games import engine
from games.engine.bots import LEVELS, ROLL_ACTION, choose_action, choose_move
from games.engine.positions import position
from games.engine.state import FINISHED, HOME, MOVE, YARD, IllegalMoveError, State

YARD4 = [YARD] * 4

# (rule set, players, options): every rule set and every option, with 2 and 4 players where allowed.
CONFIGS = {
    "classic": ("classic", [["red"], ["yellow"]], {}),
    "classic-4p-2tokens": ("classic", [["red"], ["green"], ["yellow"], ["blue"]], {"tokens": 2}),
    "duel": ("duel", [["red"], ["blue"]], {}),
    "places-3p": ("places", [["red"], ["green"], ["yellow"]], {}),
    "places-pairs": ("places", [["red"], ["yellow"]], {"pairs": True}),
    "places-hold": ("places", [["red"], ["yellow"]], {"hold": True}),
    "places-pairs-hold-4p": (
        "places",
        [["red"], ["green"], ["yellow"], ["blue"]],
        {"pairs": True, "hold": True},
    ),
    "twodice": ("twodice", [["red", "green"], ["yellow", "blue"]], {}),
}


def play(config: str, levels: list[str], rng: random.Random) -> State:
    """A whole game, each seat played by its level through choose_action; checks every choice."""
    ruleset, players, options = CONFIGS[config]
    dice = 2 if ruleset == "twodice" else 1
    state = engine.new_game(ruleset, players, options)
    for _ in range(50_000):
        if state.status == FINISHED:
            return state
        action = choose_action(state, levels[state.turn], rng)
        if action == ROLL_ACTION:
            assert engine.can_roll(state)
            state, _ = engine.roll(state, [rng.randint(1, 6) for _ in range(dice)])
        else:
            assert action in engine.legal_moves(state)
            state, _ = engine.apply_move(state, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_level_plays_only_legal_moves_to_the_end(config, level):
    rng = random.Random(f"{config}/{level}")
    seats = len(CONFIGS[config][1])
    for game in range(3):
        levels = ["random"] * seats
        levels[game % seats] = level  # the bot takes a different seat each game
        assert play(config, levels, rng).status == FINISHED


def test_bots_are_deterministic_given_the_generator():
    first = play("classic", ["strong", "random"], random.Random(7))
    again = play("classic", ["strong", "random"], random.Random(7))
    assert first == again


def test_no_move_to_choose_and_unknown_level_are_refused():
    s = engine.new_game("classic", [["red"], ["yellow"]])
    with pytest.raises(IllegalMoveError):
        choose_move(s, "strong")
    assert choose_action(s, "strong") == ROLL_ACTION
    s, _ = engine.roll(s, [6])
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        choose_move(s, "grandmaster")


# --- greedy's order of wishes ---------------------------------------------------------------------


def greedy(tokens, die, ruleset="classic"):
    state = position(ruleset, tokens, dice=(die,))
    chosen = choose_move(state, "greedy")
    return chosen.index, chosen.to


def test_greedy_prefers_a_capture_to_bringing_a_token_home():
    # Red 1 at 44 captures yellow's single on square 50 (yellow progress 24) with a 6; red 0 could go home.
    assert greedy({"red": [50, 44, -1, -1], "yellow": [24, -1, -1, -1]}, 6) == (1, 50)


def test_greedy_prefers_home_to_leaving_the_yard():
    assert greedy({"red": [-1, 50, -1, -1], "yellow": YARD4}, 6) == (1, HOME)


def test_greedy_prefers_leaving_the_yard_to_a_safe_square():
    # Red 1 could reach the star (square 8) with the 6.
    assert greedy({"red": [-1, 2, -1, -1], "yellow": YARD4}, 6) == (0, 0)


def test_greedy_prefers_a_safe_square_to_the_token_furthest_ahead():
    # Red 1 lands on the star (square 8); red 0, further ahead, would land on plain square 33.
    assert greedy({"red": [30, 5, -1, -1], "yellow": YARD4}, 3) == (1, 8)


def test_greedy_otherwise_moves_the_token_furthest_ahead():
    assert greedy({"red": [3, 20, 12, -1], "yellow": YARD4}, 2) == (1, 22)


def test_greedy_counts_a_twodice_kill_as_a_capture():
    # Red 0 at 10 kills yellow's seed on square 15 (yellow progress 41) with the 5; the 6 could bring
    # a green seed out, and red 1 at 50 could reach its column.
    state = State(
        "twodice",
        (),
        (("red", "green"), ("yellow", "blue")),
        ("red", "green", "yellow", "blue"),
        ((10, 50, HOME, HOME), (-1, HOME, HOME, HOME), (41, -1, -1, -1), (-1,) * 4),
        awaiting=MOVE,
        dice=(5, 6),
    )
    chosen = choose_move(state, "greedy")
    assert (chosen.colour, chosen.index, chosen.die, chosen.to) == ("red", 0, 5, HOME)


# --- strong ---------------------------------------------------------------------------------------


def test_strong_beats_random_in_classic():
    # Measured over 1,000 games strong wins about 94%. With p = 0.90 (a pessimistic true rate) the
    # standard deviation of the rate over 200 games is sqrt(0.9 * 0.1 / 200) = 2.1 points, so 75% is
    # seven deviations below: a regression, not bad luck (and the seeded run is deterministic anyway).
    games = 200
    rng = random.Random(2024)
    wins = 0
    for game in range(games):
        levels = ["strong", "random"] if game % 2 == 0 else ["random", "strong"]
        winner = play("classic", levels, rng).places[0]
        wins += levels[winner] == "strong"
    assert wins >= 0.75 * games


def test_strong_takes_a_capture_over_running_to_safety():
    # Red 1 at 10 can capture yellow's single at square 14 (yellow progress 40) with a 4; red 0 could
    # instead step from 30 to 34 (a star). The capture costs yellow 54 squares and earns a bonus roll.
    state = position("classic", {"red": [30, 10, -1, -1], "yellow": [40, -1, -1, -1]}, dice=(4,))
    assert choose_move(state, "strong").index == 1


def test_strong_plans_a_whole_double_six_hand_in_twodice():
    # Hand 6, 6, 6, 5. Red's seed at 10 reaches square 27, where yellow has a seed (progress 1), only
    # with 6 + 6 + 5 = 17: three dice of the hand on one seed. That kill takes the seed off the board
    # and sends yellow's back, and the last 6 still brings a seed out (so the kill is legal). No single
    # die does anything comparable, so only a bot planning the hand finds it.
    state = State(
        "twodice",
        (),
        (("red", "green"), ("yellow", "blue")),
        ("red", "green", "yellow", "blue"),
        ((10, -1, -1, -1), (-1,) * 4, (1, -1, -1, -1), (-1,) * 4),
        awaiting=MOVE,
        dice=(6, 6, 6, 5),
    )
    rng = random.Random(0)
    while state.turn == 0 and state.awaiting == MOVE:
        state, _ = engine.apply_move(state, choose_move(state, "strong", rng))
    assert state.tokens[0][0] == HOME  # red's seed killed and left the board
    assert state.tokens[2][0] == YARD  # yellow's seed is back in its yard
    assert sorted(state.tokens[0][1:] + state.tokens[1]).count(0) == 1  # the last 6 brought one out


def test_strong_with_hold_rolls_first_unless_two_sixes_are_held():
    options = {"hold": True}
    tokens = {"red": [10, 20, -1, -1], "yellow": [5, -1, -1, -1]}
    owed = position("places", tokens, dice=(6, 3), rolls=1, options=options)
    assert choose_action(owed, "strong") == ROLL_ACTION
    risky = position("places", tokens, dice=(6, 6), rolls=1, options=options)
    assert choose_action(risky, "strong") in engine.legal_moves(risky)
