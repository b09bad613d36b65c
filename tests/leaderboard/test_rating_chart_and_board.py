"""Ratings as a player reads them: what the "?" of a provisional rating means, in the rule's own
numbers, wherever it is shown; the player page's rating line and its table; the recent rounds'
rating changes and tournament matches; the rating board on the viewer's rule set, their row marked,
and its tabs answering with the board alone."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone

from games import actions
from games.models import Game
from leaderboard.charts import LinePoint, rating_line
from leaderboard.models import Rating, Result
from leaderboard.ratings.player import rating_charts
from leaderboard.ratings.scale import PROVISIONAL_SIGMA, SETTLED_SPREAD, spread
from leaderboard.web.templatetags.rating_words import provisional_words
from tests.factories import seasoned_account, staked_room
from tests.games.webplay import member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (an autouse fixture)

from .helpers import room
from .people import accounts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_redis(redis_client):
    """Actions tell live pages through Redis after commit: an empty one per test."""


def text(page: str) -> str:
    """The page's words as a reader gets them: no tags, entities read, single spaces."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def rate(user, ruleset: str, sigma: float, value: int = 1600, games: int = 9) -> Rating:
    return Rating.objects.create(
        user=user,
        ruleset=ruleset,
        mu=25,
        sigma=sigma,
        value=value,
        games=games,
        last_played=timezone.now(),
    )


def test_the_question_mark_is_explained_in_the_rules_numbers_wherever_it_shows(client, settings):
    # The words name the threshold the board ranks by, and no count of rounds the rule doesn't keep.
    assert SETTLED_SPREAD == spread(PROVISIONAL_SIGMA) == 360
    words = provisional_words()
    assert re.findall(r"\d+", words) == ["360", "360"]
    docs = (Path(django_settings.BASE_DIR) / "docs" / "ratings.md").read_text()
    assert (
        f"\N{GREEK SMALL LETTER SIGMA} > {PROVISIONAL_SIGMA:g}" in docs
        and f"±{SETTLED_SPREAD}" in docs
    )

    cat, dan = accounts("cat", "dan")
    rate(cat, "places", sigma=6.001, value=1800)  # just above: provisional
    rate(dan, "places", sigma=PROVISIONAL_SIGMA, value=1700)  # at the threshold: settled
    board = client.get("/leaderboard/?rating=places").content.decode()
    listed = text(board.split('data-testid="rating-board"')[1])
    assert "1 dan 1700 9 Provisional # Player Rating Rounds 1 cat 1800? ±361 9" in listed
    assert words in text(board) and "dozen" not in board

    tile = text(client.get("/u/cat/").content.decode())
    assert "1800? Places" in tile and "provisional, ±361" in tile and words in tile
    assert words not in text(client.get("/u/dan/").content.decode())  # nothing to explain

    # The staked lobby: a provisional host's "?" with the same words under the rooms.
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0
    host = seasoned_account("hostess")
    rate(host, "twodice", sigma=7.0, value=1550)
    staked_room(member(host), 100)
    client.force_login(seasoned_account("guesto"))
    lobby = client.get(reverse("staked_lobby")).content.decode()
    assert re.search(r'data-testid="host-rating"[^>]*>1550\?<', lobby)
    assert words in text(lobby)


def test_the_rating_line_moves_in_played_periods_and_holds_dotted_across_the_others():
    line = rating_line(1500, [LinePoint(0, 1540), LinePoint(1, 1600), LinePoint(3, 1520)])
    assert (line.bottom, line.top) == (1500, 1600)
    # Four slots of 250: weeks 0 and 1 played, week 2 without play, week 3 played.
    assert line.played == "M0.0 282.0L250.0 176.4M250.0 176.4L500.0 18.0M750.0 18.0L1000.0 229.2"
    assert line.idle == "M500.0 18.0H750.0"  # held at 1600 over the week without play
    assert line.dots.count("h0") == 3
    # A flat line keeps a span of 100 around it, so it draws flat, in the middle.
    flat = rating_line(1500, [LinePoint(0, 1500)])
    assert (flat.bottom, flat.top) == (1450, 1550) and flat.played == "M0.0 150.0L1000.0 150.0"


def test_the_chart_shows_from_the_first_rated_round_with_its_table_of_changes(client):
    ann, ben = accounts("ann", "ben")
    actions.do_resign(room([ann, ben], "duel").pk, member(ben))
    value = Rating.objects.get(user=ann, ruleset="duel").value
    page = client.get("/u/ann/").content.decode()
    chart = page.split('data-testid="rating-chart-duel"')[1].split("</figure>")[0]
    assert 'class="rating-line"' in chart and 'role="img"' in chart
    assert "rating from 1500 before" in chart and f"to {value} after" in chart
    assert f"{value} +{value - 1500}" in text(chart)  # the table: the rating, the change

    # Two more weeks, one of them three weeks back: a gap on the line, two rows more in the table.
    for _ in range(2):
        actions.do_resign(room([ann, ben], "duel").pk, member(ben))
    oldest, middle, _ = Result.objects.filter(user=ann).order_by("pk")
    Result.objects.filter(pk=oldest.pk).update(finished_at=oldest.finished_at - timedelta(weeks=3))
    Result.objects.filter(pk=middle.pk).update(finished_at=middle.finished_at - timedelta(weeks=2))
    chart = rating_charts(ann)["duel"]
    assert chart["line"].idle  # the week without play
    rows = chart["rows"]  # newest first
    assert len(rows) == 3 and sum(r.change for r in rows) == rows[0].value - 1500


def test_recent_rounds_show_the_rating_change_and_mark_a_tournament_match(client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    actions.do_resign(game.pk, member(ben))
    change = Result.objects.get(user=ann).rating_change
    history = client.get("/u/ann/").content.decode().split('data-testid="history"')[1]
    assert f"rating +{change}" in text(history) and "tournament match" not in history
    Game.objects.filter(pk=game.pk).update(in_tournament=True)
    history = client.get("/u/ann/").content.decode().split('data-testid="history"')[1]
    assert "tournament match" in history


def test_the_rating_board_opens_on_the_viewers_rule_set_and_marks_them(client):
    ann, ben, cat = accounts("ann", "ben", "cat")
    rate(ann, "classic", sigma=7.0, games=2)
    rate(ann, "duel", sigma=7.0, value=1520, games=5)  # ann's most rated
    rate(ben, "duel", sigma=7.5, value=1580, games=3)
    rate(cat, "duel", sigma=4.0, value=1650, games=40)
    assert 'rating-tab-classic" aria-current="page"' in client.get("/leaderboard/").content.decode()
    client.force_login(ann)
    page = client.get("/leaderboard/").content.decode()
    assert 'rating-tab-duel" aria-current="page"' in page
    listed = text(page.split('data-testid="rating-board"')[1])
    assert "1 cat 1650 40" in listed  # the ranked list
    assert (
        "Provisional # Player Rating Rounds 1 ben 1580? ±450 3 2 ann (you) 1520? ±420 5" in listed
    )
    # Asked for, another rule set is shown.
    assert (
        'rating-tab-classic" aria-current'
        in client.get("/leaderboard/?rating=classic").content.decode()
    )


def test_a_rating_tab_answers_with_the_board_alone_keeping_the_points_boards_filters(client):
    (ann,) = accounts("ann")
    rate(ann, "places", sigma=4.0, value=1700, games=30)
    page = client.get("/leaderboard/").content.decode()
    tab = re.search(r'<a id="rating-tab-places"[^>]*>', page).group(0)
    assert 'hx-target="#ratings"' in tab and 'hx-swap="outerHTML"' in tab
    part_url = re.search(r'hx-get="([^"]+)"', tab).group(1).replace("&amp;", "&")
    part = client.get(part_url.replace("period=week", "period=month")).content.decode()
    assert part.lstrip().startswith("<section") and 'id="ratings"' in part
    assert "<html" not in part and 'id="standings"' not in part
    assert "1 ann 1700 30" in text(part)
    assert "period=month" in part  # the tabs keep the points board's period
