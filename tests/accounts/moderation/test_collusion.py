"""Collusion flags: pairs whose rounds against each other go one way, or who share an address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import collusion
from games.models import Round
from leaderboard.models import Result
from tests.games.webplay import friends_room, member

from .conftest import PASSWORD, logged_in

pytestmark = pytest.mark.django_db


def play(game, winner, loser, number: int, stake: int = 100) -> None:
    """A finished two-player round between two accounts, `winner` first."""
    round_ = Round.objects.create(game=game, number=number, server_seed="s" * 64)
    when = timezone.now() - timedelta(hours=100 - number)
    for index, (user, place, coins) in enumerate(((winner, 1, stake), (loser, 2, -stake))):
        Result.objects.create(
            round=round_,
            seat_index=index,
            user=user,
            name=user.username,
            place=place,
            players=2,
            points=10 if place == 1 else 0,
            ruleset="classic",
            against_people=True,
            coins=coins,
            how="won",
            finished_at=when,
        )


@pytest.fixture
def pair(django_user_model):
    users = django_user_model.objects
    shark = users.create_user("shark", password=PASSWORD)
    feeder = users.create_user("feeder", password=PASSWORD)
    return shark, feeder, friends_room(member(shark), [member(feeder)])


def test_five_wins_in_a_row_flag_the_pair(pair, moderator):
    shark, feeder, game = pair
    play(game, feeder, shark, 1)
    for number in range(2, 6):
        play(game, shark, feeder, number)
    assert collusion.flags() == []  # four in a row is ordinary luck
    play(game, shark, feeder, 6)
    [flag] = collusion.flags()
    assert (flag.longest_run, flag.run_winner, flag.rounds) == (5, shark, 6)
    assert flag.coins_to_winner == 400
    page = logged_in(moderator).get(reverse("admin:accounts_collusionflag_changelist"))
    assert page.status_code == 200
    assert "shark won 5 in a row" in page.content.decode()


def test_opponents_sharing_an_address_are_flagged(pair):
    shark, feeder, game = pair
    play(game, shark, feeder, 1)
    for name in ("shark", "feeder"):
        Client(REMOTE_ADDR="198.51.100.7").post(
            reverse("login"), {"username": name, "password": PASSWORD}
        )
    [flag] = collusion.flags()
    assert flag.shared_addresses == ["198.51.100.7"] and flag.longest_run == 1
    assert "same address (198.51.100.7)" in flag.reasons


def test_players_never_see_the_flags(pair):
    shark, _, _ = pair
    page = logged_in(shark).get(reverse("admin:accounts_collusionflag_changelist"))
    assert page.status_code == 302
