"""A long history on a player page: every round on exactly one page, newest first, whatever order the
rounds were written in, and the places chart and page count kept as rounds are written and voided
(the page reads them from the player's history, never by counting their results)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.db.models import Count
from django.utils import timezone

from leaderboard.histories import renumber_results
from leaderboard.models import PlaceTally, PlayerHistory, Result
from leaderboard.round_removal import remove_round

from .helpers import accounts, write

pytestmark = pytest.mark.django_db


def replays_on(html: str) -> list[str]:
    return re.findall(r'href="/replays/([^/]+)/">Replay</a>', html)


def walk_pages(client, username: str) -> tuple[list[str], list[str]]:
    """Every page of the player's rounds, following "Older": the replay ids in page order, and each
    page's "Page k of n"."""
    seen, labels, url = [], [], f"/u/{username}/"
    while url:
        page = client.get(url).content.decode()
        seen += replays_on(page)
        labels += re.findall(r"Page \d+ of \d+", page)
        older = re.search(r'<a href="(\?page=\d+)" rel="next">Older</a>', page)
        url = f"/u/{username}/{older.group(1)}" if older else None
    return seen, labels


def newest_first(user) -> list[str]:
    """The player page's order, as the results say it: newest first, then the earlier written."""
    rows = Result.objects.filter(user=user).select_related("round").order_by("-finished_at", "pk")
    return [r.round.public_id for r in rows]


def test_every_round_is_on_one_page_newest_first_however_the_rounds_were_written(client):
    ann, ben, cat = accounts("ann", "ben", "cat")
    now = timezone.now()
    moments = [now - timedelta(hours=n) for n in range(41)]
    moments += [now - timedelta(hours=5)] * 3  # three rounds at one moment: the later written first
    random.Random(3).shuffle(moments)  # a backfill writes old rounds after new ones
    for n, when in enumerate(moments):
        write([ann, ben] if n % 2 else [cat, None, ann], when)

    seen, labels = walk_pages(client, "ann")
    assert seen == newest_first(ann) and len(seen) == 44
    assert labels == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    assert len(replays_on(client.get("/u/ann/?page=3").content.decode())) == 4
    assert replays_on(client.get("/u/ann/?page=99").content.decode()) == seen[40:]  # the last
    assert PlayerHistory.objects.get(user=ann).rounds == 44


def test_rounds_written_in_order_are_numbered_without_renumbering_and_match_a_renumbering():
    ann, ben = accounts("ann", "ben")
    now = timezone.now()
    for n in range(30):
        write([ann, ben] if n % 3 else [ben, ann], now - timedelta(minutes=30 - n))
    written = dict(Result.objects.filter(user__isnull=False).values_list("pk", "number"))
    renumber_results(Result)  # what the migration does for results written before the numbers
    assert dict(Result.objects.filter(user__isnull=False).values_list("pk", "number")) == written
    anns = set(Result.objects.filter(user=ann).values_list("pk", flat=True))
    assert sorted(n for pk, n in written.items() if pk in anns) == list(range(1, 31))


def places_counted(user) -> dict[tuple[str, int], int]:
    """The places chart's numbers as the results say them (what the page counted before)."""
    rows = Result.objects.filter(user=user, counted=True).values("ruleset", "place")
    return {(r["ruleset"], r["place"]): r["n"] for r in rows.annotate(n=Count("pk"))}


def tallied(user) -> dict[tuple[str, int], int]:
    rows = PlaceTally.objects.filter(user=user, rounds__gt=0)
    return {(t.ruleset, t.place): t.rounds for t in rows}


def test_the_places_chart_counts_counted_rounds_and_a_void_takes_its_round_out(client):
    ann, ben, cat = accounts("ann", "ben", "cat")
    now = timezone.now().replace(hour=12)  # one UTC day for every round
    for n in range(8):  # ann and ben: 5 count a day, the other 3 don't
        write([ann, ben] if n % 2 else [ben, ann], now - timedelta(minutes=n), ruleset="duel")
    write([cat, ann, None], now, ruleset="classic")
    write([ann, None], now, ruleset="classic", how="agreed")  # counts for nobody
    assert tallied(ann) == places_counted(ann) and sum(tallied(ann).values()) == 6

    voided = Result.objects.filter(user=cat).first().round_id
    remove_round(voided)
    assert tallied(ann) == places_counted(ann) and ("classic", 2) not in tallied(ann)
    page = client.get("/u/ann/").content.decode()
    chart = page.split('data-testid="places-chart"', 1)[1].split("</table>", 1)[0]
    assert "Classic" not in chart and "Duel" in chart
    assert PlayerHistory.objects.get(user=ann).rounds == 10  # a void stays in the history
