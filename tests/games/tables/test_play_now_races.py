"""Play now under real concurrency (PostgreSQL): forty accounts of one rating press Play now for a
4-table at the same moment (threads, each with its own connection from the test process's pool, which
lends at most DATABASE_POOL_SIZE at once: the others wait for one, not for each other). One press per
kind at a time takes the list (the queue's advisory lock), so every fourth press seats a table.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> \\
      .venv/bin/pytest tests/games/tables/test_play_now_races.py
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Game, Seat
from games.tables.models import TableWait
from games.tables.waiting import do_play_now
from tests.factories import accounts, member
from tests.races import at_once, postgres_only, refused

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]


def test_play_now_forty_presses_at_once_seat_ten_public_tables_nobody_twice_nobody_left():
    people = accounts(*(f"p{i}" for i in range(40)))
    players = [member(user) for user in people]
    results = at_once([lambda p=p: do_play_now(p, "classic", 4, 15, {}, False) for p in players])
    assert refused(results) == []
    tables = list(Game.objects.filter(public=True))
    assert len(tables) == 10
    assert all(g.status == Game.Status.PLAYING and g.rated for g in tables)
    seated = Counter(
        Seat.objects.filter(game__public=True, kind=Seat.Kind.HUMAN).values_list(
            "user_id", flat=True
        )
    )
    assert set(seated) == {u.pk for u in people} and set(seated.values()) == {1}
    assert not TableWait.objects.filter(status=TableWait.Status.WAITING).exists()
    assert Counter(TableWait.objects.values_list("game_id", flat=True)) == {g.pk: 4 for g in tables}
