"""The live board's controls as each viewer gets them: the host's words only for the host, a Roll that
stays in place but is disabled when it can't act, token buttons that say where they go, and finished
tokens that never cover each other."""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import set_script_prefix

from games import actions
from games.live.board_view import board_context
from games.live.fragments import render_live
from games.live.viewpoint import viewpoint_for
from tests.factories import friends_room, local_game, member, timed_room
from tests.games.webplay import SEED, anon, awaiting_move, fresh, me, play_until

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


def board_for(game, actor) -> str:
    game = fresh(game)
    seats = list(game.seats.select_related("user").order_by("index"))
    return render_live(game, viewpoint_for(game, seats, actor), seats=seats)


def roll_button(html: str) -> str:
    return re.search(r'<button[^>]*data-testid="roll"[^>]*>', html).group(0)


def test_the_invitation_instructions_are_the_hosts_alone(django_user_model):
    alice = member(django_user_model.objects.create_user("alice"))
    bob = member(django_user_model.objects.create_user("bob"))
    game = friends_room(alice, start=False)  # a new room: nobody joined yet
    assert "Share the invitation link" in board_for(game, alice)
    for visitor in (bob, anon("a-stranger")):  # who opened the invitation link
        board = board_for(game, visitor)
        assert "Share the invitation link" not in board
        assert "Waiting for the host to start the game." in board


def test_roll_stays_in_place_and_is_disabled_during_a_pause_and_off_turn(django_user_model):
    alice = member(django_user_model.objects.create_user("alice"))
    bob = member(django_user_model.objects.create_user("bob"))
    game = timed_room(alice, bob, seconds=30)  # alice (the host, red) rolls first
    mine = board_for(game, alice)
    assert "aria-disabled" not in roll_button(mine) and 'data-can-roll="1"' in mine
    assert 'aria-disabled="true"' in roll_button(board_for(game, bob))  # not his turn
    actions.pauses.do_pause(game.pk, bob)
    paused = board_for(game, alice)
    assert 'aria-disabled="true"' in roll_button(paused) and 'data-can-roll="0"' in paused
    assert "the game is paused" in paused
    assert 'data-testid="roll"' not in board_for(game, anon("a-stranger"))  # a spectator has none


def test_a_token_button_is_named_by_colour_number_and_where_it_goes():
    owner = anon("owner")
    game = play_until(local_game(owner), me(owner), awaiting_move)
    html = board_for(game, owner)
    names = re.findall(r'class="token-button[^"]* movable"[^>]*aria-label="([^"]+)"', html, re.S)
    assert names, html
    for name in names:
        assert re.match(
            r"^(Red|Green|Yellow|Blue) [1-4], .+: move "
            r"(to \d+ steps out|out to the start square|into the home column, \d from home|home)"
            r"( or .+)?$",
            name,
        ), name
    assert 'data-testid="key-hints"' in html and "<kbd" in html


@pytest.mark.parametrize("count", [2, 3, 4])
def test_finished_tokens_sit_apart_on_their_triangle(count):
    for colour in ("red", "green", "yellow", "blue"):
        tokens = board_context({colour: [56] * count}, ruleset="classic")["board_tokens"]
        for a, b in itertools.combinations(tokens, 2):
            gap = ((a["cx"] - b["cx"]) ** 2 + (a["cy"] - b["cy"]) ** 2) ** 0.5
            assert gap >= a["r"] + b["r"], (colour, a, b)


def test_the_forms_post_under_the_script_prefix_of_the_request_that_renders_them(django_user_model):
    """A site served under a prefix (its proxy's /ludo/) posts there, whichever prefix the process
    rendered the same game's board under before: the addresses are kept per game and prefix."""
    alice = member(django_user_model.objects.create_user("alice"))
    game = friends_room(alice, start=False)
    leave_at = f'action="/games/{game.pk}/leave"'
    assert leave_at in board_for(game, alice)
    set_script_prefix("/ludo/")
    try:
        board = board_for(game, alice)
        assert f'action="/ludo/games/{game.pk}/leave"' in board and leave_at not in board
    finally:
        set_script_prefix("/")
    assert leave_at in board_for(game, alice)
