"""A search's ranks are counted differently from the board's (the points ahead of all the page's rows in
one read, leaderboard.standings.add_more_points), and must come out the same: checked here against the
board's own order over tables full of ties, with banned players among them."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from leaderboard.models import ALL_RULESETS, Board, Period, Standing
from leaderboard.standings import windows

from .people import accounts

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_player_found_has_the_rank_the_board_gives(client, seed):
    rng = random.Random(seed)
    players = accounts(*[f"p{n:02d}{'ab'[n % 2]}" for n in range(60)])
    start = windows()["all"].start
    early = timezone.now() - timedelta(days=3)
    for user in players:  # few point values and wins, and some equal times: ties at every level
        Standing.objects.create(
            user=user,
            ruleset=ALL_RULESETS,
            board=Board.ALL,
            period=Period.ALL,
            start=start,
            points=rng.choice([0, 3, 6, 10, 13, 20]),
            wins=rng.randrange(3),
            games=5,
            reached_at=early + timedelta(minutes=rng.randrange(4)),
        )
    for user in rng.sample(players, 5):
        user.is_active = False
        user.save(update_fields=["is_active"])

    board = {}
    for page in (1, 2, 3):
        html = client.get(f"/leaderboard/?board=all&period=all&page={page}").content.decode()
        board.update({name: int(rank) for rank, name in rows(html)})
    assert sorted(board.values()) == list(range(1, 56))  # 55 players shown, ranked 1 to 55

    for term in ("a", "b", "p0", "p1", "p2", "3", "5b"):
        ranked = []
        for page in (1, 2):  # a search's results come in pages of 25 too
            url = f"/leaderboard/?board=all&period=all&q={term}&page={page}"
            ranked += (
                rows(client.get(url).content.decode()) if page == 1 or len(ranked) == 25 else []
            )
        assert ranked and all(term in name for _, name in ranked)
        assert {name: int(rank) for rank, name in ranked} == {
            name: rank for name, rank in board.items() if term in name
        }


def rows(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<td>(\d+)</td>\s*<td><a href="/u/([^/]+)/">', html)
