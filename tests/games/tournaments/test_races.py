"""Tournaments under real concurrency, on PostgreSQL: threads (each its own database connection)
released together. SQLite serialises every writer with one lock, so these races can't happen there
(skipped, saying so).

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> .venv/bin/pytest tests/games/tournaments/test_races.py
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core.errors import Conflict
from games.tournaments import live, series
from games.tournaments.models import Tournament, TournamentSeries
from games.tournaments.registration import do_leave, do_register, open_tournament
from games.tournaments.starting import do_cancel, do_start
from games.tournaments.sweeper import tell_starting_soon
from ludopat.refusals import Refusal
from tests.games.tournaments.helpers import balances, fresh, full_tournament, players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401
from tests.races import at_once, interleave, nothing, postgres_only

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]


def test_forty_accounts_race_for_eight_seats():
    people = players(40)
    before = balances(people)
    tournament = open_tournament(8, 100)
    results = at_once([lambda actor=actor: do_register(actor, tournament.pk) for actor in people])
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 32
    assert all(isinstance(r, Conflict) and "full" in str(r) for r in refused), refused[:3]
    tournament = fresh(tournament)
    assert tournament.entries.count() == 8
    assert tournament.pool.balance == 800
    after = balances(people)
    paid = [u for u in after if after[u] != before[u]]
    assert len(paid) == 8 and all(before[u] - after[u] == 100 for u in paid)
    assert tournament.starts_at is not None  # the eighth seat started the countdown, once


@pytest.mark.parametrize("attempt", range(3))
def test_leave_against_start_one_of_them_wins(attempt):
    people = players(4, prefix=f"r{attempt}-")
    before = balances(people)
    tournament = full_tournament(people, start=False)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(1))
    left, started = at_once(
        [lambda: do_leave(people[0], tournament.pk), lambda: do_start(tournament.pk)]
    )
    tournament = fresh(tournament)
    after = balances(people)
    if isinstance(left, Refusal):  # the start came first: the leaver is in the bracket
        assert "started before you left" in str(left)
        assert started is True and tournament.status == Tournament.Status.PLAYING
        assert tournament.matches.filter(round=1).exclude(game=None).count() == 2
        assert after[people[0].user_id] == before[people[0].user_id] - 100
        assert tournament.pool.balance == 400
    else:  # the leave came first: refunded, not full, nothing started
        assert started is False and tournament.status == Tournament.Status.OPEN
        assert after[people[0].user_id] == before[people[0].user_id]
        assert tournament.pool.balance == 300 and not tournament.matches.exists()


def test_cancel_against_registration_refunds_exactly():
    people = players(4)
    before = balances(people)
    tournament = open_tournament(8, 100)
    calls = [lambda actor=actor: do_register(actor, tournament.pk) for actor in people]
    at_once([*calls, lambda: do_cancel(tournament.pk, "race")])
    assert balances(people) == before
    assert fresh(tournament).pool.balance == 0


def test_a_start_repeated_by_the_task_and_the_sweeper_starts_once():
    tournament = full_tournament(players(4), start=False)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(1))
    results = at_once([lambda: do_start(tournament.pk) for _ in range(4)])
    assert results.count(True) == 1
    assert fresh(tournament).matches.exclude(game=None).count() == 2


def test_a_registration_in_flight_as_beat_tells_the_start_gets_its_player_told(monkeypatch):
    """Beat's "starts in N s" notice runs while a registration's transaction is open: the newcomer
    is told once, by one side or the other, never by neither (the sweep waits for the tournament's
    lock, so it reads the seats as the registration leaves them)."""
    told: list[tuple[int, str]] = []
    real = live.tell_on_commit

    def noting(user_ids, text, *args, **kwargs):
        told.extend((user_id, text) for user_id in user_ids)
        return real(user_ids, text, *args, **kwargs)

    monkeypatch.setattr(live, "tell_on_commit", noting)
    people = players(3)
    tournament = open_tournament(4, 100, scheduled_for=timezone.now() + timedelta(1))
    for actor in people[:2]:
        do_register(actor, tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() + timedelta(seconds=8)
    )

    registered, swept = interleave(
        lambda: do_register(people[2], tournament.pk), nothing, tell_starting_soon
    )
    assert not isinstance(registered, BaseException), registered
    assert swept == 1
    newcomer = [text for user_id, text in told if user_id == people[2].user_id]
    assert len(newcomer) == 1, told
    assert "if its last 1 seat fill" in newcomer[0]
    assert sorted(user_id for user_id, _ in told) == sorted(p.user_id for p in people)


def test_four_beats_opening_a_series_slot_at_once_open_it_once():
    now = timezone.now().replace(second=0, microsecond=0)
    start = now + timedelta(minutes=10)
    cup = TournamentSeries.objects.create(
        name="Race cup", size=4, buy_in=100, at_time=start.time(), time_zone="UTC"
    )
    results = at_once([lambda: series.do_open_due(now) for _ in range(4)])
    assert sorted(results) == [0, 0, 0, 1]  # type: ignore[type-var]
    assert Tournament.objects.filter(series=cup, scheduled_for=start).count() == 1
