"""What a player sees of ratings: the number beside names on the board and in the staked lobby, the
change at the end of a rated round, the rating board of /leaderboard/ and the player page's chart."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import actions
from games.models import Seat
from games.staking.rooms import do_join_staked_room
from leaderboard.models import Rating, RatingReplay, Result
from leaderboard.ratings import board
from leaderboard.ratings.board_version import forget_board
from leaderboard.ratings.player import rating_charts
from leaderboard.ratings.scale import shown
from leaderboard.round_removal import remove_round
from tests.factories import seasoned_account, staked_room
from tests.games.webplay import member
from tests.leaderboard.helpers import room
from tests.leaderboard.people import accounts
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_redis(redis_client):
    """Actions tell live pages through Redis after commit: an empty one per test."""


def text(html: str) -> str:
    """The page's words, without tags and with single spaces."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_rated_round_shows_the_ratings_by_the_names_and_the_change_at_its_end(client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    # Stored on the seats when the round started: what the board shows beside the names.
    assert sorted(Seat.objects.filter(game=game).values_list("rating", flat=True)) == [1500, 1500]
    client.force_login(ann)
    playing = client.get(game.get_absolute_url()).content.decode()
    assert all(re.search(f'data-testid="rating-{i}"[^>]*>1500<', playing) for i in (0, 1))

    actions.do_resign(game.pk, member(ben))  # an early resignation rates as any loss
    won = Result.objects.get(user=ann).rating_change
    lost = Result.objects.get(user=ben).rating_change
    assert won > 0 > lost
    over = text(client.get(game.get_absolute_url()).content.decode())
    assert f"ann 10 pts rating +{won}" in over and f"ben 0 pts rating {lost}" in over

    # The next round starts with the ratings the first one left.
    actions.do_new_round(game.pk, member(ann))
    actions.do_new_round(game.pk, member(ben))
    seats = dict(Seat.objects.filter(game=game).values_list("user_id", "rating"))
    assert seats == {ann.pk: 1500 + won, ben.pk: 1500 + lost}


def test_games_against_the_computer_show_and_move_no_rating(client):
    from tests.games.webplay import computer_game

    (ann,) = accounts("ann")
    game = computer_game(member(ann), ruleset="duel")
    actions.do_resign(game.pk, member(ann))
    assert not Rating.objects.filter(games__gt=0).exists()
    assert set(Seat.objects.filter(game=game).values_list("rating", flat=True)) == {None}
    client.force_login(ann)
    assert "rating-change" not in client.get(game.get_absolute_url()).content.decode()


def test_the_rating_board_ranks_settled_players_and_lists_the_others_apart(client):
    ann, ben, cat, dan, eve = accounts("ann", "ben", "cat", "dan", "eve")
    now = timezone.now()
    for user, value, sigma, played in [
        (ann, 1610, 4.5, now),
        (ben, 1720, 5.0, now - timedelta(days=3)),
        (cat, 1800, 7.5, now),  # provisional, however high
        (dan, 1900, 4.0, now - timedelta(days=91)),  # inactive
        (eve, 2000, 4.0, now),  # banned below
    ]:
        Rating.objects.create(
            user=user,
            ruleset="places",
            mu=25,
            sigma=sigma,
            value=value,
            games=30,
            last_played=played,
        )
    eve.is_active = False
    eve.save()

    page = client.get("/leaderboard/?rating=places").content.decode()
    board = text(page.split('data-testid="rating-board"')[1])
    head = "Player Rating Rounds"
    assert f"# {head} 1 ben 1720 30 2 ann 1610 30 Provisional # {head} 1 cat 1800? ±450 30" in board
    assert f"Not played for 90 days {head} dan 1900 30" in board
    assert "eve" not in board and "Recalculating" not in board
    # Another rule set has its own board.
    assert "No settled ratings" in client.get("/leaderboard/?rating=duel").content.decode()
    # A nonsense rule set is the default board, not an error.
    assert client.get("/leaderboard/?rating=chess").status_code == 200

    RatingReplay.objects.create(ruleset="places", from_result=1)
    forget_board("places")  # as request_replay does once its transaction commits
    assert "Recalculating" in client.get("/leaderboard/?rating=places").content.decode()


def rating_lists(client, ruleset: str) -> str:
    page = client.get(f"/leaderboard/?rating={ruleset}").content.decode()
    return text(page.split('data-testid="rating-board"')[1])


def test_the_rating_board_is_new_after_each_rated_round_and_a_ban_shows_at_once(
    client, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    ann, ben, cat = accounts("ann", "ben", "cat")
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_resign(room([ann, ben], "duel").pk, member(ben))
    won = Result.objects.get(user=ann).rating_change
    assert f"1 ann {1500 + won}? ±" in rating_lists(client, "duel")

    # Kept: the next page draws the board without reading the ratings again.
    with django_assert_max_num_queries(6) as kept:
        client.get("/leaderboard/?rating=duel")
    assert not any("leaderboard_rating" in q["sql"] for q in kept.captured_queries)

    # The next rated round's commit replaces the board.
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_resign(room([cat, ann], "duel").pk, member(ann))
    ann_now = Rating.objects.get(user=ann, ruleset="duel").value
    lists = rating_lists(client, "duel")
    assert f"ann {ann_now}? ±" in lists and "cat" in lists

    # A ban changes no rating, and the kept board leaves the banned player out at once.
    cat.is_active = False
    cat.save()
    assert "cat" not in rating_lists(client, "duel") and "ann" in rating_lists(client, "duel")


def test_the_standings_refresh_every_5_s_works_out_no_rating_board(client):
    (ann,) = accounts("ann")
    client.force_login(ann)
    with CaptureQueriesContext(connection) as refresh:
        page = client.get("/leaderboard/?rating=duel", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="standings"' in page and "rating-board" not in page
    assert not any("leaderboard_rating" in q["sql"] for q in refresh.captured_queries)


def test_the_rating_board_reads_past_more_banned_players_than_it_keeps_spare(client, monkeypatch):
    monkeypatch.setattr(board, "LISTED", 2)
    monkeypatch.setattr(board, "SPARE", 1)
    players = accounts("ann", "ben", "cat", "dan", "eve")
    for n, user in enumerate(players):  # ann highest
        Rating.objects.create(
            user=user,
            ruleset="classic",
            mu=25,
            sigma=4,
            value=1900 - 10 * n,
            games=20,
            last_played=timezone.now(),
        )
    assert "# Player Rating Rounds 1 ann 1900 20 2 ben 1890 20 Ludopat" in rating_lists(
        client, "classic"
    )
    for user in players[:2]:
        user.is_active = False
        user.save()
    # Kept: ann, ben and cat; two of them banned leaves one, so the board is read past them.
    assert "# Player Rating Rounds 1 cat 1880 20 2 dan 1870 20 Ludopat" in rating_lists(
        client, "classic"
    )


def test_the_rating_board_shows_with_the_cache_down(client, redis_down):
    (ann,) = accounts("ann")
    Rating.objects.create(
        user=ann,
        ruleset="classic",
        mu=25,
        sigma=4,
        value=1700,
        games=20,
        last_played=timezone.now(),
    )
    assert "1 ann 1700 20" in rating_lists(client, "classic")


def test_the_player_page_shows_each_rating_its_chart_and_recalculating(client):
    ann, ben = accounts("ann", "ben")
    for _ in range(3):
        game = room([ann, ben], "duel")
        actions.do_resign(game.pk, member(ben))
    # Three weeks of rounds: one chart row each.
    for weeks, result in enumerate(Result.objects.filter(user=ann).order_by("-pk")):
        Result.objects.filter(pk=result.pk).update(
            finished_at=result.finished_at - timedelta(weeks=weeks)
        )
    value = Rating.objects.get(user=ann, ruleset="duel").value
    page = client.get("/u/ann/").content.decode()
    assert f"{value}? Duel · 3 rounds · provisional" in text(page)
    chart = page.split('data-testid="rating-chart-duel"')[1].split("</table>")[0]
    values = [int(v) for v in re.findall(r'class="bar-value">(\d+)<', chart)]
    assert values[0] == value and values == sorted(values, reverse=True)  # newest first, rising

    remove_round(Result.objects.filter(user=ann).order_by("pk").first().round_id)
    assert "recalculating" in text(client.get("/u/ann/").content.decode())


def test_the_rating_chart_keeps_the_last_rating_of_each_week_read_grouped(
    django_assert_max_num_queries,
):
    ann, ben = accounts("ann", "ben")
    for _ in range(3):
        actions.do_resign(room([ann, ben], "duel").pk, member(ben))
    first, second, third = Result.objects.filter(user=ann).order_by("pk")
    eight_days_ago = timezone.now() - timedelta(days=8)
    Result.objects.filter(pk__in=[first.pk, second.pk]).update(finished_at=eight_days_ago)
    with django_assert_max_num_queries(2):
        charts = rating_charts(ann)
    # A row per week, the week's last rating, newest first.
    rows = charts["duel"]["rows"]
    assert charts["duel"]["unit"] == "week"
    assert [row.value for row in rows] == [shown(third.rating_mu), shown(second.rating_mu)]
    monday = (third.finished_at - timedelta(days=third.finished_at.weekday())).date()
    assert rows[0].start == monday


def test_a_long_rating_history_is_charted_by_month_each_months_own_last_rating():
    """A week that straddles two months ends each month with that month's own last round."""
    ann, ben = accounts("ann", "ben")
    for _ in range(4):
        actions.do_resign(room([ann, ben], "duel").pk, member(ben))
    old, january, february, later = Result.objects.filter(user=ann).order_by("pk")
    days = {old: (2025, 9, 1), january: (2026, 1, 31), february: (2026, 2, 1), later: (2026, 2, 1)}
    for result, (year, month, day) in days.items():
        when = datetime(year, month, day, 12, tzinfo=UTC)  # Saturday 31 Jan and Sunday 1 Feb 2026
        Result.objects.filter(pk=result.pk).update(finished_at=when)  # share an ISO week
    chart = rating_charts(ann)["duel"]
    assert chart["unit"] == "month"
    assert [(row.label, row.value) for row in chart["rows"]] == [
        ("Feb 2026", shown(later.rating_mu)),
        ("Jan 2026", shown(january.rating_mu)),
        ("Sep 2025", shown(old.rating_mu)),
    ]


def test_the_staked_lobby_shows_the_hosts_rating(client, settings):
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0
    host, guest = seasoned_account("hostess"), seasoned_account("guesto")
    Rating.objects.create(user=host, ruleset="twodice", mu=30, sigma=4, value=1800, games=40)
    game = staked_room(member(host), 100)
    client.force_login(guest)
    lobby = client.get(reverse("staked_lobby")).content.decode()
    assert re.search(r'data-testid="host-rating"[^>]*>1800<', lobby)
    # Joining starts the round: both seats carry their ratings.
    do_join_staked_room(member(guest), game.pk)
    seats = dict(Seat.objects.filter(game=game).values_list("user_id", "rating"))
    assert seats == {host.pk: 1800, guest.pk: 1500}
