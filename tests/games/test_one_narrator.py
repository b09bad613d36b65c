"""One narrator: the replay tells a game in the same words as the game's own move log did."""

from __future__ import annotations

import pytest

from games import engine
from games.actions import Actor, SeatSpec, create_game, do_move, do_roll, engine_state
from games.core.narration import narrate
from games.models import Action, Game
from games.reads.records import record_for
from games.reads.replay_page import replay_data

NAMES = ["Alice", "Bob", "Carol", "Dan"]


def play_pass_and_play(ruleset: str, options: dict, count: int) -> Game:
    """A pass & play game played to the end through games.actions, always the first legal move."""
    actor = Actor(None, "owner-key")
    seats = [SeatSpec("local", name) for name in NAMES[:count]]
    game = create_game(actor, "local", ruleset, options, seats)
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            break
        state = engine_state(game)
        if engine.can_roll(state) and not engine.legal_moves(state):
            do_roll(game.pk, actor, None)
        else:
            move = engine.legal_moves(state)[0]
            do_move(game.pk, actor, None, move.colour, move.index, move.die, move.pair)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.django_db
@pytest.mark.slow  # whole games in every rule set: make test, not test-fast
@pytest.mark.parametrize(
    ("ruleset", "options", "count"),
    [
        ("classic", {"tokens": 2}, 2),
        ("places", {"hold": True, "pairs": True}, 3),
        ("twodice", {}, 2),
    ],
)
def test_the_replay_says_what_the_move_log_said_for_every_action(ruleset, options, count):
    game = play_pass_and_play(ruleset, options, count)
    logged = list(
        Action.objects.filter(game=game, kind__in=[Action.Kind.ROLL, Action.Kind.MOVE])
        .order_by("seq")
        .values_list("text", flat=True)
    )
    steps = replay_data(record_for(game))["steps"][1:]  # step 0 is the position before play

    assert [step["text"] for step in steps] == logged
    said = " ".join(logged)
    assert "Alice rolled" in said and "Bob rolled" in said  # third person, by the seats' names
    assert "You" not in said
    assert "Game over." in logged[-1]


def test_the_viewers_own_seat_is_you_and_the_others_keep_their_names():
    events = [
        engine.Event("moved", 0, ("red", 0), 4, 9),
        engine.Event("captured", 0, ("yellow", 1), 9, -1),
        engine.Event("bonus_roll", 0),
    ]
    names = ["Ann", "Bo"]
    assert narrate(events, 0, names) == ("Ann moved Red 1 by 5. Yellow 2 was captured! Roll again.")
    assert narrate(events, 0, names, you={0}).startswith("You moved Red 1 by 5.")
    passed = [engine.Event("turn_passed", 1)]
    assert narrate(passed, 0, names, you={1}) == "Your turn."
    assert narrate(passed, 0, names, you={0}) == "Bo's turn."
