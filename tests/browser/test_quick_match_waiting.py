"""Quick match in real browsers: a new player sees which tiers they may enter, presses quick match and
waits on the waiting screen (tier, prize, time waited, how many wait and play at that stake); a reload
keeps the entry; when someone else presses at the same stake, the waiting page goes to the game by
itself, whose header says it is staked. axe checks each page as it is reached."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.play import live, log_in, make_user
from tests.factories import PASSWORD, seasoned_account
from tests.ledger_checks import assert_ledger_ok

pytestmark = [pytest.mark.browser, pytest.mark.longest]


def _entry_status(game_id: str) -> str:
    return Game.objects.get(pk=game_id).status


def _waited_seconds(page) -> int:
    minutes, seconds = page.get_by_test_id("quick-waited").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_quick_match_screen_shows_waiting_time_and_count_and_survives_a_reload(
    new_page, server, shoot_sizes
):
    server(make_user, "alice")  # a new account: quick match up to the new-player cap
    server(seasoned_account, "bob", PASSWORD)
    alice = new_page()
    log_in(alice, "alice")
    alice.goto("/staked/")
    form = alice.get_by_test_id("quick-match-form")
    expect(form.get_by_test_id("tier-250").locator("input")).to_be_disabled()
    expect(form.get_by_test_id("tier-250")).to_contain_text("New accounts stake at most 100")
    shoot_sizes(alice, "staked-lobby-new-player")
    form.get_by_test_id("tier-100").locator("input").check()
    alice.get_by_test_id("quick-match").click()

    screen = alice.get_by_test_id("quick-waiting")
    expect(screen).to_be_visible()
    expect(alice.get_by_test_id("quick-stake")).to_have_text("100 coins")
    expect(alice.get_by_test_id("quick-prize")).to_have_text("180 coins to the winner")
    expect(alice.get_by_test_id("quick-waited")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(alice.get_by_test_id("quick-waiting-count")).to_have_text("1")
    expect(alice.get_by_test_id("quick-playing-count")).to_have_text("0")
    expect(alice.get_by_test_id("quick-warning")).to_contain_text("100 coins go back")
    cancel = alice.get_by_test_id("cancel-quick")
    expect(cancel).to_be_visible()
    expect(cancel).to_have_text("Cancel and get my 100 coins back")
    game_id = screen.get_attribute("data-game")
    # The status part polls: the time waited moves on while the page stays put.
    clock = alice.get_by_test_id("quick-waited")
    expect(clock).not_to_have_text(
        clock.inner_text(), timeout=15_000
    )  # a loaded machine: slow polls
    shoot_sizes(alice, "quick-match-waiting")

    waited = _waited_seconds(alice)
    alice.reload()  # the page closes for a moment and comes back
    expect(alice.get_by_test_id("quick-waiting")).to_have_attribute("data-game", game_id)
    assert _waited_seconds(alice) >= waited  # the same entry, still counting from its press
    expect(alice.get_by_test_id("cancel-quick")).to_be_visible()
    assert server(_entry_status, game_id) == Game.Status.OPEN

    bob = new_page()
    log_in(bob, "bob")
    bob.goto("/staked/")
    bob.get_by_test_id("quick-match-form").get_by_test_id("tier-100").locator("input").check()
    bob.get_by_test_id("quick-match").click()
    for page in (alice, bob):  # alice's waiting screen follows by itself
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=15_000)
        expect(page.get_by_test_id("stake-header")).to_contain_text(
            "100 coins each · pot 200 coins · the winner takes 180 coins"
        )
    assert alice.url.endswith(f"/games/{game_id}/")
    # The ledger's invariants, checked here rather than by the autouse fixture: the stack's teardown
    # stops the games in play without settling them, after the test and before that fixture's check.
    server(assert_ledger_ok)
