"""The sentences of the message line and the move log read naturally for whoever they name."""

from __future__ import annotations

import pytest

from games import engine
from games.core import narration
from tests.factories import anon


def test_a_game_against_the_computer_says_your_turn_not_yous_turn():
    names = ["You", "Yellow computer"].__getitem__
    passed = narration.describe([engine.Event("turn_passed", 0)], "Yellow computer", names)
    assert passed == "Your turn."
    no_move = narration.describe(
        [engine.Event("rolled", 1, dice=(4,)), engine.Event("turn_passed", 0)],
        "Yellow computer",
        names,
    )
    assert no_move == "Yellow computer rolled 4. No move with a 4: turn passes to you."


def test_other_players_keep_their_names():
    names = ["Ann", "Bo"].__getitem__
    assert narration.describe([engine.Event("turn_passed", 1)], "Ann", names) == "Bo's turn."


def test_a_twodice_kill_is_not_told_as_reaching_home():
    names = ["Ann", "Bo"].__getitem__
    kill = [
        engine.Event("moved", 0, ("red", 0), 10, engine.HOME),
        engine.Event("captured", 0, ("yellow", 1), 36),
        engine.Event("killed", 0, ("red", 0)),
    ]
    assert narration.describe(kill, "Ann", names) == (
        "Ann moved Red 1. Yellow 2 was captured! Red 1 killed and left the board."
    )
    home = [
        engine.Event("moved", 0, ("red", 0), 54, engine.HOME),
        engine.Event("home", 0, ("red", 0)),
    ]
    assert narration.describe(home, "Ann", names) == "Ann moved Red 1 home. Red 1 is home."


@pytest.mark.django_db
def test_a_typed_name_never_passes_for_an_account(django_user_model, redis_client):
    """A pass & play player named like a stored reference to an account ("{user:<id>}") is shown by
    that name in the log and the message line, never as the account's own name."""
    from tests.games.webplay import live_html, local_game, me, step

    victim = django_user_model.objects.create_user("victim")
    owner = anon()
    spoof = f"{{user:{victim.pk}}}"
    game = local_game(owner, names=(spoof, "Ben"))
    for _ in range(2):
        game = step(game, me(owner))
    html = live_html(game, owner)
    assert spoof in html
    assert "victim" not in html
