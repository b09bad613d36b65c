"""The staked lobby's bands and limits, and what a staked game's page says of its coins
(games/staking/lobby_reads.py, stake_limits.py, quick_waiting_reads.py and terms.py, through the pages a player sees)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from games import actions
from games.models import Game
from games.staking import rooms
from tests.games.staking import test_stakes_views as staked_pages
from tests.games.webplay import member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db

# The staked pages' players and settings (two accounts two days old, each with a logged-in client).
quiet, ann, bea = staked_pages.quiet, staked_pages.ann, staked_pages.bea
player, text, open_room = staked_pages.player, staked_pages.text, staked_pages.open_room


def band(page: str, low: int) -> str:
    start = page.index(f'data-testid="band-{low}"')
    end = page.find("</section>", start)
    return page[start:end]


def test_rooms_are_grouped_in_bands_from_one_tier_to_the_next_with_prize_and_players(
    ann, bea, django_user_model
):
    open_room(ann[1], "120")  # in the 100 to 249 band
    playing = rooms.do_create_staked_room(member(bea[0]), "twodice", 260)  # 250 to 499
    carl = player(django_user_model, "carl")
    rooms.do_join_staked_room(member(carl[0]), playing.pk)
    page = text(Client().get("/staked/"))
    titles = re.findall(r'<h3 id="band-\d+-title">([^<]+)</h3>', page)
    assert titles == [
        "10 to 49 coins",
        "50 to 99 coins",
        "100 to 249 coins",
        "250 to 499 coins",
        "500 to 999 coins",
        "1,000 to 10,000 coins",
    ]
    hundred = band(page, 100)
    assert "Quick match at 100 coins: the winner takes <strong>180 coins</strong>" in hundred
    assert ">1 waiting<" in hundred and ">0 playing<" in hundred
    assert "<strong>120</strong> coins" in hundred and "ann" in hundred
    two_fifty = band(page, 250)
    assert "the winner takes <strong>450 coins</strong>" in two_fifty
    assert ">0 waiting<" in two_fifty and ">2 playing<" in two_fifty
    assert 'data-testid="staked-room"' not in two_fifty  # a game in play is no open room
    assert "Quick match at" not in band(page, 10)  # below the first tier: rooms only


def test_a_new_player_sees_which_tiers_and_rooms_they_may_enter(ann, django_user_model, settings):
    open_room(ann[1], "250")
    settings.LUDOPAT_NEW_PLAYER_GAMES = 5
    new = django_user_model.objects.create_user("newbie")  # joined now: a new account
    client = Client()
    client.force_login(new)
    page = text(client.get("/staked/"))
    assert "you can stake up to 100 coins for now" in page
    for tier in (50, 100):
        label = page[page.index(f'data-testid="tier-{tier}"') :].split("</label>")[0]
        assert "disabled" not in label
    for tier in (250, 500, 1000):
        label = page[page.index(f'data-testid="tier-{tier}"') :].split("</label>")[0]
        assert "disabled" in label and "New accounts stake at most 100 coins" in label
    room = page[page.index('data-testid="staked-room"') :].split("</li>")[0]
    assert "Join for" not in room and "New accounts stake at most 100 coins" in room
    assert "(For now, at most 100 coins: your account is new.)" in page  # under the stake field


def test_an_old_player_may_enter_every_tier_their_wallet_covers(ann):
    page = text(ann[1].get("/staked/"))
    assert "your account is new" not in page.lower()
    for tier in (50, 100, 250, 500, 1000):
        label = page[page.index(f'data-testid="tier-{tier}"') :].split("</label>")[0]
        assert "disabled" not in label
    assert re.search(r'value="100" required checked', page)  # the second tier, offered first


def test_a_refused_quick_match_keeps_the_chosen_tier_and_says_why_at_it(ann, settings):
    settings.LUDOPAT_STAKE_TIERS = (50, 100, 2000)  # 2,000: more than the wallet's 1,000
    _, client = ann
    r = client.post("/staked/quick", {"tier": "2000", "ruleset": "twodice", "key": "q"})
    assert r.status_code == 409 and not Game.objects.exists()
    assert re.search(r'id="quick-tier_error"[^>]*>This room(&#x27;|\')s stake is 2,000', text(r))


def test_a_staked_game_says_it_is_staked_in_its_header_and_result(ann, bea):
    open_room(ann[1], "100")
    game = Game.objects.get()
    rooms.do_join_staked_room(member(bea[0]), game.pk)
    header = (
        "<strong>Staked game</strong> · 100 coins each · pot 200 coins · the winner takes "
        "180 coins (house cut 20 coins)"
    )
    assert header in text(bea[1].get(f"/games/{game.pk}/"))
    actions.do_resign(game.pk, member(bea[0]))
    page = text(ann[1].get(f"/games/{game.pk}/"))
    assert header in page
    assert "100 coins each, a pot of 200 coins; the winner takes 180 coins" in page


def test_the_small_ghost_button_is_not_white_on_nothing():
    css = (Path(__file__).resolve().parents[3] / "static/css/site.css").read_text()
    assert re.search(r"\.button-ghost\.button-small \{ color: var\(--accent\) !important; \}", css)
