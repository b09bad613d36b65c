"""Scheduled series (games/tournaments/series.py): slots are wall-clock times of the series' time
zone across summer time, beat opens each instance its lead time ahead and never twice (a repeated run,
the database's one instance per slot), and the lobby lists the instance with its start for the
viewer's clock, a live countdown and how long a tournament of that size usually takes."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from games import tasks
from games.tournaments import series
from games.tournaments.models import Tournament, TournamentSeries
from games.tournaments.registration import open_tournament
from ludopat.celery import app
from tests.games.tournaments.helpers import full_tournament, play_out, players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def a_series(**fields) -> TournamentSeries:
    defaults = {
        "name": "Evening cup",
        "size": 4,
        "buy_in": 100,
        "every": TournamentSeries.Every.DAILY,
        "at_time": time(20, 0),
        "time_zone": "Europe/Paris",
    }
    return TournamentSeries.objects.create(**{**defaults, **fields})


def test_a_daily_slot_keeps_its_local_time_across_summer_time():
    cup = a_series()
    slots = series.slots_between(cup, utc(2026, 3, 27, 12), utc(2026, 3, 30, 12))
    # 20:00 in Paris: 19:00 UTC in winter (UTC+1), 18:00 UTC from the change on 29 March (UTC+2).
    assert slots == [utc(2026, 3, 27, 19), utc(2026, 3, 28, 19), utc(2026, 3, 29, 18)]
    skipped = a_series(at_time=time(2, 30))  # 02:30 doesn't exist in Paris on 29 March
    assert series.slots_between(skipped, utc(2026, 3, 29), utc(2026, 3, 29, 6)) == [
        utc(2026, 3, 29, 1, 30)  # read with the winter offset: 03:30 summer time
    ]
    repeated = a_series(at_time=time(2, 30))  # 02:30 happens twice on 25 October: once here
    assert series.slots_between(repeated, utc(2026, 10, 24, 22), utc(2026, 10, 25, 6)) == [
        utc(2026, 10, 25, 0, 30)
    ]


def test_an_hourly_series_has_a_slot_in_every_real_hour_at_its_local_minute():
    hourly = a_series(every=TournamentSeries.Every.HOURLY, at_time=time(0, 15))
    autumn_day = series.slots_between(hourly, utc(2026, 10, 24, 22), utc(2026, 10, 25, 23))
    assert len(autumn_day) == 25  # the day summer time ends has 25 hours in Paris
    spring_day = series.slots_between(hourly, utc(2026, 3, 28, 23), utc(2026, 3, 29, 22))
    assert len(spring_day) == 23
    assert {slot.minute for slot in autumn_day + spring_day} == {15}
    kolkata = a_series(
        every=TournamentSeries.Every.HOURLY, at_time=time(0, 0), time_zone="Asia/Kolkata"
    )
    # On the hour in India (UTC+5:30) is half past in UTC.
    assert series.slots_between(kolkata, utc(2026, 6, 1, 10), utc(2026, 6, 1, 12)) == [
        utc(2026, 6, 1, 10, 30),
        utc(2026, 6, 1, 11, 30),
    ]


def test_beat_opens_each_instance_its_lead_time_ahead_once():
    now = timezone.now().replace(second=0, microsecond=0)
    start = now + timedelta(minutes=90)
    cup = a_series(at_time=start.time(), time_zone="UTC", open_minutes=60, buy_in=250)
    assert series.do_open_due(now) == 0  # 90 min ahead: not yet
    later = now + timedelta(minutes=31)
    assert tasks.open_series.name == "games.tasks.open_series"
    assert series.do_open_due(later) == 1
    assert series.do_open_due(later) == 0  # a repeated run, or a second beat
    instance = Tournament.objects.get(series=cup)
    assert (instance.scheduled_for, instance.starts_at) == (start, start)
    assert (instance.size, instance.buy_in, instance.status) == (4, 250, Tournament.Status.OPEN)
    # The database holds one instance per slot, whoever inserts it.
    twin = open_tournament(4, 250, scheduled_for=start)
    twin.series = cup
    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save(update_fields=["series"])
    entry = settings.CELERY_BEAT_SCHEDULE["open-tournament-series"]
    assert entry["task"] in app.tasks and entry["schedule"] <= 60


def test_the_lobby_shows_an_instance_with_a_countdown_and_how_long_one_usually_takes():
    now = timezone.now()
    people = players(4)
    for minutes in (20, 40):  # two finished 4-player tournaments: the median is 30 min
        done = play_out(full_tournament(people), people)
        Tournament.objects.filter(pk=done.pk).update(
            started=now - timedelta(hours=3),
            finished=now - timedelta(hours=3) + timedelta(minutes=minutes),
        )
    soon = (now + timedelta(minutes=30)).replace(second=0, microsecond=0)
    cup = a_series(at_time=soon.time(), time_zone="UTC", name="Lunch cup")
    later = a_series(name="Night owls", size=8, at_time=(now + timedelta(hours=5)).time())
    series.do_open_due(now)
    page = Client().get("/tournaments/").content.decode()
    instance = Tournament.objects.get(series=cup)
    scheduled = page.split('data-testid="scheduled"')[1].split("</section>")[0]
    item = scheduled.split(f'data-testid="tournament-{instance.pk}"')[1].split("</li>")[0]
    assert "Lunch cup" in item
    assert f'datetime="{soon.isoformat()}"' in item
    assert f'data-starts="{int(soon.timestamp())}000"' in item and 'class="countdown"' in item
    assert "usually takes about 30 min" in item
    # A series not opened yet says when it starts and when registration opens.
    owl = scheduled.split(f'data-testid="series-{later.pk}"')[1].split("</li>")[0]
    assert "Night owls" in owl and "opens 60 minutes before" in owl
    assert "No 8-player tournament has finished yet" in owl
    # Not among the sit-and-gos.
    registering = page.split('id="registering-title"')[1].split("</section>")[0]
    assert f"tournament-{instance.pk}" not in registering


def test_the_lobby_names_the_rule_set_of_a_series_and_its_instance():
    """A series an admin set to classic says so, before it opens and once it has; the lobby's
    opening words don't promise two-dice matches for every tournament."""
    now = timezone.now()
    soon = (now + timedelta(minutes=30)).replace(second=0, microsecond=0)
    opened = a_series(at_time=soon.time(), time_zone="UTC", name="Classic hour", ruleset="classic")
    later = a_series(name="Duel night", ruleset="duel", at_time=(now + timedelta(hours=5)).time())
    series.do_open_due(now)
    page = Client().get("/tournaments/").content.decode()
    instance = Tournament.objects.get(series=opened)
    assert instance.ruleset == "classic"
    item = page.split(f'data-testid="tournament-{instance.pk}"')[1].split("</li>")[0]
    assert "Classic hour</a> · Classic ·" in item
    upcoming = page.split(f'data-testid="series-{later.pk}"')[1].split("</li>")[0]
    assert "Duel night · Duel ·" in upcoming
    assert "Sit-and-go knockouts of two-dice 1 v 1 matches" not in page
