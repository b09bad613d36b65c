"""Rated quick match under real concurrency (PostgreSQL): twenty players of spread ratings press at the
same moment (threads, each its own connection), then the sweeper's passes run every 2 s of a clock the
test moves on. Everyone is paired by the time the range is "anyone" (30 s), each pair within both
players' ranges at the moment it was paired, and the total rating gap is no more than first-come
pairing's for the order the presses arrived in.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> \
      .venv/bin/pytest tests/games/staking/test_rated_quick_match_races.py -s
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from accounts.ledger.history import balance_of
from games.models import Action, Game, Seat
from games.staking import sweeper
from games.staking.quick import PAIRED_INTO, do_quick_match
from leaderboard.models import Rating
from tests.games.webplay import member
from tests.ledger_checks import assert_ledger_ok
from tests.races import at_once, postgres_only, refused

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]

# Twenty ratings spread over 1000-2500, in a fixed order of pressing threads (their arrival under the
# queue's lock is the race's).
RATINGS = random.Random(23).sample(range(1000, 2501), 20)


def allowed(waited: float) -> float:
    """The issue's range, written out again: ±(100 + 20 per whole second), at most 400, anyone at 30 s."""
    return float("inf") if waited >= 30 else min(400, 100 + 20 * int(waited))


def test_twenty_spread_presses_pair_everyone_within_range_and_closer_than_first_come(
    django_user_model,
):
    people = []
    for i, value in enumerate(RATINGS):
        user = django_user_model.objects.create_user(f"r{i}")
        Rating.objects.create(
            user=user,
            ruleset="twodice",
            mu=25 + (value - 1500) / 60,
            sigma=4,
            value=value,
            games=30,
        )
        people.append(member(user))
    rating = dict(zip((p.user_id for p in people), RATINGS, strict=True))

    results = at_once([lambda p=p: do_quick_match(p, "100", "twodice") for p in people])
    assert refused(results) == []

    # When each press took the queue: its entry's creation, or its seat's JOIN in the game it joined.
    pressed: dict[int, datetime] = {}
    for game in Game.objects.filter(quick=True):
        pressed[game.owner_id] = game.created
    for user_id, at in Action.objects.filter(game__quick=True, kind=Action.Kind.JOIN).values_list(
        "seat__user_id", "created"
    ):
        pressed[user_id] = at
    arrival = sorted(rating, key=lambda user_id: pressed[user_id])
    at_press = set(Game.objects.filter(quick=True, status=Game.Status.PLAYING))
    for game in at_press:  # paired at the press: the presser waited nothing
        host, guest = (s.user_id for s in game.seats.order_by("index"))
        gap = abs(rating[host] - rating[guest])
        assert gap <= allowed(0) and gap <= allowed((pressed[guest] - game.created).total_seconds())

    # The sweeper's passes, every 2 s after the presses, until nobody waits.
    start = max(pressed.values())
    paired_at: dict[str, datetime] = {}
    for k in range(1, 18):
        now = start + timedelta(seconds=2 * k)
        before = set(Game.objects.filter(quick=True, status=Game.Status.PLAYING))
        sweeper.pair_waiting(now)
        for game in set(Game.objects.filter(quick=True, status=Game.Status.PLAYING)) - before:
            paired_at[game.pk] = now
        if not Game.objects.filter(quick=True, status=Game.Status.OPEN).exists():
            break
    assert not Game.objects.filter(quick=True, status=Game.Status.OPEN).exists()
    assert max(paired_at.values()) - start <= timedelta(seconds=32)  # anyone at 30 s, a pass at 32

    # Each sweep's pair within both ranges at its pass: the earlier entry's wait and the merged one's.
    merged_created = {
        action.data[PAIRED_INTO]: action.game.created
        for action in Action.objects.filter(game__quick=True, kind=Action.Kind.ABANDON)
        .select_related("game")
        .filter(data__has_key=PAIRED_INTO)
    }
    games = list(Game.objects.filter(quick=True, status=Game.Status.PLAYING))
    assert len(games) == 10 and len(merged_created) == len(paired_at)
    total = 0
    for game in games:
        host, guest = (s.user_id for s in game.seats.order_by("index"))
        gap = abs(rating[host] - rating[guest])
        total += gap
        if game.pk in paired_at:
            now = paired_at[game.pk]
            assert gap <= allowed((now - game.created).total_seconds())
            assert gap <= allowed((now - merged_created[game.pk]).total_seconds())

    seated = sorted(Seat.objects.filter(game__in=games).values_list("user_id", flat=True))
    assert seated == sorted(rating)  # each exactly once
    assert all(balance_of(p.user_id) == 900 for p in people)  # one stake held each, refunds back
    first_come = sum(
        abs(rating[a] - rating[b]) for a, b in zip(arrival[::2], arrival[1::2], strict=True)
    )
    print(
        f"rated quick match: {len(at_press)} pairs at the press, {len(paired_at)} by the sweep, "
        f"last at {(max(paired_at.values()) - start).total_seconds():.0f} s; total gap {total} "
        f"(first-come in the same arrival order: {first_come})"
    )
    assert total <= first_come
    assert_ledger_ok()
