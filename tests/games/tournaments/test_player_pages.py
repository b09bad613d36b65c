"""A tournament as its players live it, on the pages (SQLite, no browser): their own match first on
the bracket, the forfeit that asks what it costs, the knocked-out player told at once, the podium for
everyone, a match's page that knows it is a match, the lobby's opening form and finished list, the
home page's card and the wallet's tournament lines."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from games.tournaments import live
from games.tournaments.models import Tournament
from games.tournaments.registration import open_tournament
from tests.factories import accounts, member
from tests.games.tournaments.helpers import full_tournament, live_matches, lose, play_out, players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def logged_in(actor) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=actor.user_id))
    return client


@pytest.fixture
def told(monkeypatch):
    """{user id: [notices pushed to their open pages]} (run `committed` for the pushes to go)."""
    sent: dict[int, list[str]] = {}
    monkeypatch.setattr(
        live, "send_to_account", lambda uid, html: sent.setdefault(uid, []).append(html)
    )
    return sent


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """committed(fn, *args): fn's result, its on-commit pushes sent as if it had committed."""

    def run(fn, *args):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args)

    return run


def my_part(page: str) -> str:
    found = re.search(
        r'<div id="my-match".*?</div>\s*</div>|<div id="my-match".*?</div>', page, re.S
    )
    return found.group(0) if found else ""


def test_your_own_match_comes_first_and_reads_play_your_match():
    people = players(4)
    tournament = full_tournament(people)
    match = live_matches(tournament)[0]
    page = (
        logged_in(people[[a.user_id for a in people].index(match.first.user_id)])
        .get(f"/tournaments/{tournament.pk}/")
        .content.decode()
    )
    mine = page.index('id="my-match"')
    assert mine < page.index('id="bracket-live"'), "the player's match comes before the bracket"
    assert f'href="/games/{match.game_id}" data-testid="play-your-match">Play your match' in page
    assert f"against <strong>{match.second.user.username}</strong>" in page
    # A spectator's page has no part of its own, and the bracket's link to the match says Watch.
    watcher = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Play your match" not in watcher and f'href="/games/{match.game_id}">Watch' in watcher
    # Each side's tokens home, in words.
    assert re.search(r'data-testid="score-1-0-0"><strong>0</strong> home', watcher)


def test_the_forfeit_asks_first_saying_what_it_costs():
    people = players(4)
    tournament = full_tournament(people, buy_in=50)
    page = logged_in(people[0]).get(f"/tournaments/{tournament.pk}/").content.decode()
    button = re.search(r'<button[^>]*data-testid="forfeit"[^>]*>([^<]*)</button>', page)
    assert button and button.group(1) == "Forfeit your matches"
    assert "button-small button-ghost" in button.group(0)
    assert re.search(
        r'data-confirm="Forfeit tournament #\d+\? .*50-coin buy-in stays in the pot',
        button.group(0),
    )


def test_a_knocked_out_player_is_told_at_once_and_everyone_gets_the_podium(told, committed):
    people = players(4)
    tournament = full_tournament(people, buy_in=50)
    first, second = live_matches(tournament)
    committed(lose, first, people)  # first.first is out; first.second plays on
    out, on = first.first, first.second
    (notice,) = [n for n in told[out.user_id] if "You are out" in n]
    assert f"{on.user.username} beat you in the semi-final, and you finish 3rd-4th" in notice
    assert "Your place pays no prize." in notice  # 4 players: 70/30 to the finalists
    assert f"{on.user.username} plays on in the final" in notice
    assert 'href="/tournaments/' in notice and "Watch the bracket" in notice  # no final yet
    assert f'data-notice="tournament-{tournament.pk}"' in notice  # replaces the one before it
    page = logged_in(member(out.user)).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "You are out: you finish 3rd-4th." in my_part(page)

    committed(lose, second, people)  # the final opens: the second loser is sent to watch it
    final = live_matches(tournament)[0]
    (notice,) = [n for n in told[second.first.user_id] if "You are out" in n]
    assert f'href="/games/{final.game_id}/"' in notice and "Watch them play" in notice

    told.clear()
    tournament = committed(play_out, tournament, people)
    champion = tournament.entries.get(place=1)
    paid = set(tournament.entries.filter(prize__gt=0).values_list("user_id", flat=True))
    assert len(paid) == 2
    for actor in people:  # everyone in it: the podium, their finish, the final's replay
        (podium,) = [n for n in told[actor.user_id] if "is over" in n]
        assert re.search(
            r"1st <strong>\w+</strong> \(126 coins\).*2nd <strong>\w+</strong> \(54 coins\).*3rd-4th",
            podium,
            re.S,
        )
        assert re.search(r'href="/replays/[\w-]+/">Watch the final(&#x27;|\')s replay', podium)
        # A prize's notice carries the new balance for the navigation (coins.js).
        assert ("data-nav-balance" in podium) is (actor.user_id in paid)
    (mine,) = [n for n in told[champion.user_id] if "is over" in n]
    assert "you finished 1st and won 126 coins" in mine and 'data-nav-balance="1,076"' in mine
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="podium"' in page and 'data-testid="final-replay"' in page
    assert page.index('data-testid="podium"') < page.index('data-testid="bracket"')


def test_a_match_page_says_which_match_it_is_and_has_no_dead_buttons():
    people = players(4)
    tournament = full_tournament(people)
    match = live_matches(tournament)[0]
    player = logged_in(people[[a.user_id for a in people].index(match.first.user_id)])
    page = player.get(f"/games/{match.game_id}/").content.decode()
    assert re.search(rf'data-testid="match-title">Tournament #{tournament.pk} · Semi-final<', page)
    assert "Friends room" not in page
    assert 'data-testid="new-round"' not in page
    assert "you are out of the tournament" in page  # the resign's confirmation says what it costs
    lose(match, people)
    page = player.get(f"/games/{match.game_id}/").content.decode()
    assert 'data-testid="new-round"' not in page and "Play again" not in page
    assert f'href="/tournaments/{tournament.pk}/" data-testid="back-to-bracket"' in page


def test_the_lobby_folds_its_rules_previews_prizes_and_closes_buy_ins_a_new_account_cant_use(
    settings,
):
    settings.LUDOPAT_NEW_PLAYER_MAX = 100
    (newcomer,) = accounts("newcomer")
    client = Client()
    client.force_login(newcomer)
    page = client.get("/tournaments/").content.decode()
    assert re.search(r'<details class="rules"[^>]*>\s*<summary>How tournaments work', page)
    closed = re.search(r'data-testid="buy-in-250">(.*?)</label>', page, re.S).group(1)
    assert "disabled" in closed and "New accounts stake at most 100 coins for now." in closed
    assert "disabled" not in re.search(r'data-testid="buy-in-50">(.*?)</label>', page, re.S).group(
        1
    )
    # The prize table of the choice, before opening: 8 players at 100 coins.
    preview = client.get("/tournaments/prizes?size=8&buy_in=100").content.decode()
    assert "pot 800 coins" in preview and "3rd-4th</th><td>90 coins each" in preview
    # A buy-in this player can't use isn't previewed as chosen.
    assert (
        "at 250 coins" not in client.get("/tournaments/prizes?size=4&buy_in=250").content.decode()
    )


def test_finished_tournaments_list_winner_date_and_pot():
    people = players(4)
    tournament = play_out(full_tournament(people, buy_in=50), people)
    champion = tournament.entries.get(place=1).user.username
    page = Client().get("/tournaments/").content.decode()
    line = re.search(
        rf"Tournament #{tournament.pk}</a> · won by <strong>(\w+)</strong> · <time[^>]*>[^<]+</time> · pot 200 coins",
        page,
    )
    assert line and line.group(1) == champion


def test_the_home_page_has_a_tournaments_card():
    open_tournament(4, 50)
    page = Client().get("/").content.decode()
    card = re.search(r'data-testid="home-tournaments">(.*?)</article>', page, re.S).group(1)
    assert "1 registering · 0 in play" in card and "0 of 4 seats taken" in card
    assert 'href="/tournaments/"' in card


def test_wallet_lines_link_their_tournament_and_only_the_winner_sees_the_cut():
    people = players(4)
    tournament = play_out(full_tournament(people, buy_in=50), people)
    champion = tournament.entries.get(place=1)
    runner_up = tournament.entries.get(place=2)
    for entry, cut in ((champion, True), (runner_up, False)):
        page = logged_in(member(entry.user)).get("/accounts/wallet/").content.decode()
        prize = re.search(r'<tr data-kind="prize">(.*?)</tr>', page, re.S).group(1)
        assert f'href="/tournaments/{tournament.pk}/" data-testid="wallet-tournament"' in prize
        assert ("house cut" in prize) is cut
        buy_in = re.search(r'<tr data-kind="buy_in">(.*?)</tr>', page, re.S).group(1)
        assert f"Tournament #{tournament.pk}</a>" in buy_in
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert Game.objects.filter(in_tournament=True).count() == 3
