"""Opening a tournament from the lobby: the host is registered in the same transaction, so a refused
open leaves nothing behind (no empty tournament in the lobby), and a host holds at most one
registering tournament."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.staking.rooms import do_create_staked_room
from games.tournaments import reads
from games.tournaments.models import Tournament
from tests.factories import member
from tests.games.tournaments.helpers import players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def logged_in(actor) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=actor.user_id))
    return client


def press_open(actor, buy_in: int = 100, size: int = 4) -> tuple[int, str]:
    """Press "Open a tournament"; (status, the page it lands on)."""
    answer = logged_in(actor).post(
        "/tournaments/new", {"size": size, "buy_in": buy_in}, follow=True
    )
    return answer.redirect_chain[-1][1], answer.content.decode()


def registering() -> list[Tournament]:
    return list(reads.lobby(None)["registering"])


def test_a_refused_open_leaves_no_tournament_in_the_lobby(settings):
    settings.LUDOPAT_STAKE_TIERS = (100, 250, 5000)
    settings.LUDOPAT_NEW_PLAYER_MAX = 200
    ann, ben = players(2)
    newbie = member(User.objects.create_user("newbie"))
    do_create_staked_room(ben, "twodice", 100)  # ben is committed to his room
    _, page = press_open(newbie, 250)
    assert "New accounts" in page  # above the new-player cap
    _, page = press_open(ben, 100)
    assert "open staked room" in page  # committed elsewhere
    settings.LUDOPAT_NEW_PLAYER_MAX = 10_000  # past the cap: the wallet is what refuses now
    _, page = press_open(ann, 5000)
    assert "The buy-in is 5,000 coins" in page
    assert Tournament.objects.count() == 0 and registering() == []


def test_a_host_holds_at_most_one_registering_tournament():
    ann, ben = players(2)
    press_open(ann)
    (first,) = registering()
    # Alone in it, she leaves: nobody is in it, so it is gone from the lobby, and she may open again.
    logged_in(ann).post(f"/tournaments/{first.pk}/leave")
    assert registering() == []
    press_open(ann)
    (second,) = registering()
    logged_in(ben).post(f"/tournaments/{second.pk}/join")
    logged_in(ann).post(f"/tournaments/{second.pk}/leave")
    # Ben is still in the one she opened: it registers on, and she opens no other meanwhile.
    _, page = press_open(ann)
    assert f"You opened tournament #{second.pk}" in page
    assert [t.pk for t in registering()] == [second.pk]
