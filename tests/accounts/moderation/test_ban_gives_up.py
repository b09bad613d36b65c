"""A ban counts as the banned player giving up at that moment, in every room they sit in:
the computer may play their seat on, but never in their name to a better place than last."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.moderation import bans
from games.core.narration import shown
from games.models import Game
from games.tournaments.models import Tournament, TournamentEntry
from games.tournaments.registration import do_register, open_tournament
from leaderboard.models import Result
from tests.games.tournaments.helpers import balances, full_tournament, live_matches, lose, players
from tests.games.webplay import fresh, friends_room, member
from tests.ledger_checks import assert_ledger_ok

from .conftest import logged_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60


@pytest.fixture
def room(django_user_model, player):
    """An unstaked room in play: `rival` hosts, the troll (`player`) is the guest."""
    rival = django_user_model.objects.create_user("rival")
    return friends_room(member(rival), [member(player)]), rival


def places(game: Game, number: int = 1) -> list[int | None]:
    """The accounts in the order a round's results placed them."""
    rows = Result.objects.filter(round__game=game, round__number=number).order_by("place")
    return list(rows.values_list("user_id", flat=True))


def rival_presses(rival, game: Game, what: str) -> Client:
    browser = logged_in(rival)
    browser.post(f"/games/{game.pk}/{what}", {"version": fresh(game).version}, **HTMX)
    return browser


def test_a_ban_loses_the_banned_players_round_even_if_the_opponent_resigns(room, player, moderator):
    game, rival = room
    bans.do_ban(moderator, player, reason="Abuse")
    rival_presses(rival, game, "resign")  # too late: the round ended when the ban gave it up
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert places(game) == [rival.pk, player.pk]
    assert "troll resigned. rival wins!" in shown(
        game.message, {player.pk: "troll", rival.pk: "rival"}
    )


def test_a_new_round_asked_after_a_ban_never_gives_the_banned_player_first_place(
    room, player, moderator
):
    game, rival = room
    bans.do_ban(moderator, player, reason="Abuse")
    rival_presses(rival, game, "new-round")
    game = fresh(game)
    assert places(game) == [rival.pk, player.pk]
    assert game.round == 2 and game.status == Game.Status.PLAYING  # nobody else's agreement needed
    seat = game.seats.get(user=player)
    assert (
        seat.resigned and seat.bot_controlled
    )  # gave up this round too: placed last whatever comes


def test_a_ban_in_a_room_of_three_gives_up_the_seat_and_play_goes_on(
    room, player, moderator, django_user_model
):
    _, rival = room
    third = django_user_model.objects.create_user("third")
    game = friends_room(member(rival), [member(player), member(third)], count=3)
    bans.do_ban(moderator, player, reason="Abuse")
    game = fresh(game)
    assert game.status == Game.Status.PLAYING
    seat = game.seats.get(user=player)
    assert seat.resigned and seat.bot_controlled
    rival_presses(third, game, "resign")
    game = fresh(game)
    assert places(game) == [rival.pk, third.pk, player.pk]


def test_a_ban_gives_up_a_registering_tournament_seat_and_refunds_it(moderator):
    people = players(2)
    before = balances(people)
    registering = open_tournament(4, 100)
    for actor in people:
        do_register(actor, registering.pk)

    bans.do_ban(moderator, User.objects.get(pk=people[0].user_id), reason="Cheating")
    # The seat is free again and the buy-in back: the tournament fills with people who play.
    assert list(registering.entries.values_list("user_id", flat=True)) == [people[1].user_id]
    assert Tournament.objects.get(pk=registering.pk).pool.balance == 100
    assert balances(people)[people[0].user_id] == before[people[0].user_id]
    assert_ledger_ok()


def test_a_ban_between_matches_forfeits_the_tournament(moderator):
    people = players(4)
    playing = full_tournament(people)
    semi, _ = live_matches(playing)
    lose(semi, people)  # its winner waits for the final
    bans.do_ban(moderator, User.objects.get(pk=semi.second.user_id), reason="Cheating")
    assert TournamentEntry.objects.get(pk=semi.second_id).forfeited
    assert Tournament.objects.get(pk=playing.pk).pool.balance == 400  # the prizes' already
    assert_ledger_ok()
