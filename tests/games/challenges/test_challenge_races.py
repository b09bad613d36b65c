"""Challenges answered at the same moment (PostgreSQL: threads, each its own connection; SQLite
serialises every writer, so these races can't happen there): two accepts, an accept and the lapse
sweep, a staked accept and the challenger's other door for coins.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> \
      .venv/bin/pytest tests/games/challenges/test_challenge_races.py -p no:xdist
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.ledger.history import balance_of
from games.challenges.answers import do_accept, do_decline
from games.challenges.lapses import lapse_due
from games.challenges.models import Challenge
from games.core.errors import Conflict
from games.models import Game
from games.staking.rooms import do_create_staked_room
from tests.factories import member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401
from tests.races import (
    at_once,
    interleave,
    only_refusals,
    postgres_only,
    refused,
    succeeded,
)

from .helpers import challenge, player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0


def test_two_accepts_of_one_challenge_at_once_make_one_room():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    results = at_once([lambda: do_accept(member(ben), made.pk) for _ in range(3)])
    assert not refused(results), results  # the later presses find the room the first made
    assert len({game.pk for game in results}) == 1
    assert Game.objects.count() == 1
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.ACCEPTED


def test_an_accept_and_a_decline_at_once_one_answer_stands():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    results = at_once(
        [lambda: do_accept(member(ben), made.pk), lambda: do_decline(member(ben), made.pk)]
    )
    only_refusals(results)
    assert len(succeeded(results)) == 1
    status = Challenge.objects.get(pk=made.pk).status
    assert Game.objects.count() == (1 if status == Challenge.Status.ACCEPTED else 0)


def _lock(challenge_id: int) -> None:
    Challenge.objects.select_for_update().get(pk=challenge_id)


def test_an_accept_holding_the_challenge_when_the_sweep_lapses_it_stands():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    later = timezone.now() + timedelta(minutes=3)  # the sweep's clock: past the challenge's time
    accepted, swept = interleave(
        lambda: _lock(made.pk), lambda: do_accept(member(ben), made.pk), lambda: lapse_due(later)
    )
    assert isinstance(accepted, Game), accepted
    assert swept == 0  # it waited on the row and found the challenge answered
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.ACCEPTED


def test_a_sweep_lapsing_the_challenge_first_refuses_the_accept_waiting_on_it():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    Challenge.objects.filter(pk=made.pk).update(lapses=timezone.now())

    # The sweep holds the challenge's row as the accept comes, and lapses it.
    swept, accepted = interleave(
        lambda: _lock(made.pk), lapse_due, lambda: do_accept(member(ben), made.pk)
    )
    assert swept == 1
    assert isinstance(accepted, Conflict) and "lapsed" in str(accepted), accepted
    assert not Game.objects.exists()
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.LAPSED


@pytest.mark.parametrize("attempt", range(2))  # which side wins varies: both outcomes are checked
def test_a_staked_accept_racing_the_challengers_own_staked_room(attempt):
    ann, ben = player(f"ann{attempt}"), player(f"ben{attempt}")
    made = challenge(ann, ben, ruleset="twodice", stake="300")
    results = at_once(
        [
            lambda: do_accept(member(ben), made.pk),
            lambda: do_create_staked_room(member(ann), "twodice", 200),
        ]
    )
    only_refusals(results)
    assert len(succeeded(results)) == 1, results
    accepted, room = results
    if isinstance(accepted, Game):  # the accept first: the room is refused, naming the game
        assert "staked game" in str(room)
        assert balance_of(ann.pk) == balance_of(ben.pk) == 1000 - 300
    else:  # the room first: the accept is refused, no coin of ben's moved
        assert "playing for coins elsewhere" in str(accepted)
        assert (balance_of(ann.pk), balance_of(ben.pk)) == (1000 - 200, 1000)
        assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.PENDING


def test_two_staked_challenges_accepted_at_once_by_each_other_lock_in_id_order():
    """Ann accepts Ben's challenge while Ben accepts Ann's: both lock both wallets, in one order, so one
    game starts and the other accept is refused (never a deadlock)."""
    ann, ben = player("ann"), player("ben")
    to_ben = challenge(ann, ben, ruleset="twodice", stake="100")
    to_ann = challenge(ben, ann, ruleset="twodice", stake="150")
    results = at_once(
        [lambda: do_accept(member(ben), to_ben.pk), lambda: do_accept(member(ann), to_ann.pk)]
    )
    only_refusals(results)
    assert len(succeeded(results)) == 1, results
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 1
