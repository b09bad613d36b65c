"""The leaderboard page, player pages, public replays and the home page's top 5, as a visitor sees them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import ChatMessage, Round
from leaderboard import standings
from leaderboard.models import Result

from .helpers import accounts, finish, room, write

pytestmark = pytest.mark.django_db


def names_in_order(html: str) -> list[str]:
    table = html.split('data-testid="standings"', 1)[1].split('data-testid="rating-board"')[0]
    return re.findall(r'<a href="/u/([^/]+)/">', table)


def points_by_name(html: str) -> list[tuple[str, int]]:
    table = html.split('data-testid="standings"', 1)[1].split('data-testid="rating-board"')[0]
    found = re.findall(r'<a href="/u/([^/]+)/">.*?</td>\s*<td>(\d+)</td>', table, re.S)
    return [(name, int(points)) for name, points in found]


def test_the_leaderboard_ranks_by_points_then_wins_then_who_got_there_first(client):
    ann, ben, cat, dan = accounts("ann", "ben", "cat", "dan")
    now = timezone.now()
    write([ann, None], now - timedelta(minutes=30))  # ann: 10 points, 1 win
    write([None, ben, None], now - timedelta(minutes=40))  # ben: 6, then
    write([None, ben, None], now - timedelta(minutes=39))  # 12 points, 0 wins
    write([None, cat, None, None], now - timedelta(minutes=20))  # cat: 6 + 3 + ... see below
    write([None, None, cat, None], now - timedelta(minutes=19))
    write([None, None, cat, None], now - timedelta(minutes=18))  # cat: 12 points, 0 wins, later
    write([dan, None], now - timedelta(minutes=50))
    write(
        [None, dan], now - timedelta(minutes=10)
    )  # dan: 10 points, 1 win, reached earlier than ann

    page = client.get("/leaderboard/?board=all&period=all").content.decode()
    assert names_in_order(page) == ["ben", "cat", "dan", "ann"]


def test_the_default_board_is_against_people_and_the_filters_narrow_it(client):
    ann, ben, cat = accounts("ann", "ben", "cat")
    finish(room([ann, ben], "duel"), [ann, ben])
    finish(room([cat, ben], "classic"), [cat, ben])
    write([ben, None], timezone.now())  # against the computer: only on "all games"

    assert names_in_order(client.get("/leaderboard/").content.decode()) == ["ann", "cat", "ben"]
    duel = client.get("/leaderboard/?ruleset=duel").content.decode()
    assert names_in_order(duel) == ["ann", "ben"]
    everything = client.get("/leaderboard/?board=all").content.decode()
    assert points_by_name(everything) == [("ann", 10), ("cat", 10), ("ben", 10)]  # ben last there


def test_nonsense_filters_fall_back_to_the_defaults(client):
    ann, ben = accounts("ann", "ben")
    finish(room([ann, ben]), [ann, ben])
    response = client.get("/leaderboard/?period=%00&ruleset=chess&board=x&page=-3&q=" + "a" * 5000)
    assert response.status_code == 200
    assert names_in_order(response.content.decode()) == []  # nobody matches 150 a's


def test_search_finds_a_player_with_their_real_rank(client):
    users = accounts(*[f"player{i:02d}" for i in range(6)])
    now = timezone.now()
    for n, user in enumerate(users):
        for _ in range(n):
            write([user, None], now - timedelta(hours=n))
    page = client.get("/leaderboard/?board=all&q=player02").content.decode()
    assert names_in_order(page) == ["player02"]
    assert "<td>4</td>" in page  # player05, 04 and 03 are ahead


def test_search_ranks_every_player_found_as_the_board_does_with_ties_and_a_ban(client):
    """The ranks a search shows are the board's own: ties on
    points go to wins, then to who got there first, and a banned player ahead counts for nobody."""
    boss, plx, ply, plz, other = accounts("boss", "plx", "ply", "plz", "other")
    now = timezone.now()
    for n in range(4):
        write([boss, None], now - timedelta(minutes=60 - n))  # 40 points; banned below
    for n in range(3):
        write([plx, None], now - timedelta(minutes=50 - n))  # 30 points, 3 wins, first
        write([plz, None], now - timedelta(minutes=40 - n))  # 30 points, 3 wins, later
    for n in range(5):
        write([other, ply, None], now - timedelta(minutes=30 - n))  # ply: 30 points, 0 wins
    boss.is_active = False
    boss.save(update_fields=["is_active"])

    board = client.get("/leaderboard/?board=all&period=all").content.decode()
    assert names_in_order(board) == ["other", "plx", "plz", "ply"]
    found = client.get("/leaderboard/?board=all&period=all&q=pl").content.decode()
    ranks = re.findall(r'<td>(\d+)</td>\s*<td><a href="/u/([^/]+)/">', found)
    assert [(name, int(rank)) for rank, name in ranks] == [("plx", 2), ("plz", 3), ("ply", 4)]
    # The viewer's own rank above the search: the board's, whether the search finds them or not.
    for viewer, rank in ((ply, 4), (other, 1)):
        client.force_login(viewer)
        found = client.get("/leaderboard/?board=all&period=all&q=pl").content.decode()
        assert f"You are <strong>#{rank}</strong>" in found


@pytest.mark.parametrize("few", [500, 1])  # the names read first, or too many: the board walked
def test_a_search_shows_the_same_players_and_ranks_whichever_way_it_reads(client, monkeypatch, few):
    monkeypatch.setattr(standings, "FEW_NAMES", few)
    users = accounts("ann", "anna", "joanne", "bob")
    now = timezone.now()
    for n, user in enumerate(users):
        for _ in range(n + 1):
            write([user, None], now - timedelta(hours=n))
    found = client.get("/leaderboard/?board=all&period=all&q=AnN").content.decode()
    ranks = re.findall(r'<td>(\d+)</td>\s*<td><a href="/u/([^/]+)/">', found)
    assert [(name, int(rank)) for rank, name in ranks] == [("joanne", 2), ("anna", 3), ("ann", 4)]
    none = client.get("/leaderboard/?board=all&period=all&q=zed").content.decode()
    assert "No player matching “zed” in this table." in none


@pytest.mark.slow  # thirty accounts, over a hundred rounds: make test, not test-fast
def test_pages_of_twenty_five_and_jump_to_my_rank(client):
    users = accounts(*[f"p{i:02d}" for i in range(30)])
    now = timezone.now()
    for n, user in enumerate(users):
        for _ in range(n % 7 + 1):
            write([user, None], now - timedelta(minutes=n))
    last = users[0]  # one win, and the latest to get there of those with one win... ranks low
    client.force_login(last)

    first = client.get("/leaderboard/?board=all").content.decode()
    second = client.get("/leaderboard/?board=all&page=2").content.decode()
    assert len(names_in_order(first)) == 25 and len(names_in_order(second)) == 5
    assert set(names_in_order(first)).isdisjoint(names_in_order(second))

    mine = re.search(r"You are <strong>#(\d+)</strong>", first)
    rank = int(mine.group(1))
    assert rank > 25
    jump = client.get("/leaderboard/?board=all&me=1")
    assert jump.status_code == 302 and jump["Location"].endswith("page=2#me")
    landed = client.get(jump["Location"]).content.decode()
    row = re.search(r'<tr id="me" class="is-me"[^>]*>\s*<td>(\d+)</td>', landed)
    assert int(row.group(1)) == rank


def test_htmx_polling_gets_only_the_table(client):
    ann, ben = accounts("ann", "ben")
    finish(room([ann, ben]), [ann, ben])
    partial = client.get("/leaderboard/", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="standings"') and "<html" not in partial
    assert 'hx-trigger="every 5s"' in partial


def test_the_nav_and_the_home_page_show_the_week_top_five(client):
    users = accounts(*[f"h{i}" for i in range(7)])
    for n in range(6):
        finish(room([users[n], users[n + 1]]), [users[n], users[n + 1]])
    home = client.get("/").content.decode()
    top = home.split('data-testid="week-top"', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r"/u/(h\d)/", top) == ["h0", "h1", "h2", "h3", "h4"]
    assert 'href="/leaderboard/"' in home


# --- player pages -----------------------------------------------------------------------------------


def test_a_player_page_shows_rank_totals_rounds_opponents_and_public_replays(client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    ChatMessage.objects.create(game=game, name="ben", text="secret plans")
    finish(game, [ben, ann], how="resign")
    kept = Round.objects.get(game=game)

    page = client.get("/u/ben/").content.decode()
    assert "Duel" in page and "#1" in page
    assert "1 of 2" in page and '<a href="/u/ann/">ann</a>' in page
    assert f"/replays/{kept.public_id}/" in page
    assert game.pk not in page  # the room id is the invitation: never on a profile
    assert 'data-testid="points-chart"' in page and 'data-testid="places-chart"' in page
    assert "style=" not in page.split("<main", 1)[1]  # CSP: CSS classes only

    replay = client.get(f"/replays/{kept.public_id}/").content.decode()
    assert "Replay" in replay and game.pk not in replay and "secret plans" not in replay
    record = client.get(f"/replays/{kept.public_id}/record.json").json()
    assert record["id"] == kept.public_id and game.pk not in str(record)
    assert [p["name"] for p in record["result"]["places"]] == ["ben", "ann"]


def test_an_unknown_public_replay_is_a_404(client):
    assert client.get("/replays/nope/").status_code == 404
    assert client.get("/replays/nope/record.json").status_code == 404


def test_a_player_page_is_paginated_and_its_queries_do_not_grow_with_history(
    client, django_assert_max_num_queries
):
    ann, ben = accounts("ann", "ben")
    now = timezone.now()
    for n in range(45):
        write([ann, ben] if n % 2 else [ben, ann], now - timedelta(days=n))
    assert Result.objects.filter(user=ann).count() == 45

    with django_assert_max_num_queries(14):
        page = client.get("/u/ann/").content.decode()
    assert page.count("Replay</a>") == 20 and "Page 1 of 3" in page
    last = client.get("/u/ann/?page=3").content.decode()
    assert last.count("Replay</a>") == 5
    assert "not counted" not in page  # one a day


def test_a_player_page_sums_up_once_and_lists_rule_sets_only_when_there_are_several(client):
    ann, ben = accounts("ann", "ben")
    now = timezone.now()
    write([ann, ben], now - timedelta(days=1), ruleset="duel")
    one = client.get("/u/ann/").content.decode()
    assert 'data-testid="total-rank">#1<' in one and 'data-testid="total-points">10<' in one
    assert 'data-testid="totals-by-ruleset"' not in one  # one rule set: the summary says it all
    assert "All games" not in one  # one board, named once

    write([ben, ann], now, ruleset="classic")
    two = client.get("/u/ann/").content.decode()
    table = two.split('data-testid="totals-by-ruleset"', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr>") == 3  # a header and one row per rule set played, no board x rule set


def test_an_unknown_player_gets_a_page_that_helps_find_them(client):
    accounts("annabel", "ann_b")
    response = client.get("/u/anna/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "No such player" in page and "“anna”" in page
    assert '<a href="/u/annabel/">annabel</a>' in page and "ann_b" not in page
    assert 'role="search"' in page and 'action="/leaderboard/"' in page and 'value="anna"' in page


def test_a_newcomer_has_no_history(client):
    accounts("ann")
    page = client.get("/u/ann/").content.decode()
    assert "No finished games yet." in page and "No ranked rounds yet." in page


def test_a_banned_player_ahead_does_not_push_my_rank_down(client):
    ann, ben, cat = accounts("ann", "ben", "cat")
    now = timezone.now()
    write([ann, None], now - timedelta(minutes=3))
    write([ann, None], now - timedelta(minutes=2))
    write([ben, None], now - timedelta(minutes=1))
    write([None, cat], now)
    ann.is_active = False
    ann.save(update_fields=["is_active"])

    client.force_login(cat)
    page = client.get("/leaderboard/?board=all").content.decode()
    assert names_in_order(page) == ["ben", "cat"]
    assert "You are <strong>#2</strong>" in page
    found = client.get("/leaderboard/?board=all&q=ben").content.decode()
    assert "<td>1</td>" in found
    assert (
        "You are <strong>#2</strong>" in found
    )  # counted with the search's rows, the ban left out
    assert "#1" in client.get("/u/ben/").content.decode()


def test_staked_coins_show_on_the_leaderboard_and_the_player_page(client):
    ann, ben = accounts("ann", "ben")
    finish(room([ann, ben], "twodice"), [ann, ben], how="resign", coins={0: 90, 1: -100})
    board = client.get("/leaderboard/?ruleset=twodice").content.decode()
    assert '<th scope="col">Coins</th>' in board and "<td>+90 coins</td>" in board
    assert "<td>-100 coins</td>" in board
    assert '<span class="coins-won">+90 coins</span>' in client.get("/u/ann/").content.decode()
    duel_only = client.get("/leaderboard/?ruleset=duel").content.decode()
    assert '<th scope="col">Coins</th>' not in duel_only
