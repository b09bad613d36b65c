"""A timed `twodice` room: two players; one closes the tab; the other watches the computer play for the
absent player, live, once the disconnection grace is over; the absent player comes back and plays on."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import check_accessible
from tests.browser.play import (
    alice_and_bob,
    assert_not_reloaded,
    game_id,
    mark_no_reload,
    state,
    version,
)

pytestmark = [pytest.mark.browser, pytest.mark.longest]

TIMER = 5  # a test-only timer (the stack runs with LUDOPAT_TEST_SEEDS=1)


def actions_of(game: str, username: str):
    """(kind, auto) of every roll and move of `username`'s seat, in order."""
    from games.models import Action

    rows = Action.objects.filter(
        game_id=game, seat__user__username=username, kind__in=["roll", "move"]
    ).order_by("seq")
    return list(rows.values_list("kind", "auto"))


def play_if_my_turn(page: Page) -> bool:
    """One action (a roll, or the first movable token) if the page says it is its turn."""
    s = state(page)
    if s.get("myTurn") != "1" or s.get("paused") == "1":
        return False
    before = version(page)
    try:
        if s.get("canRoll") == "1":
            page.get_by_test_id("roll").click(timeout=2000)
        else:
            page.locator(".token-button.movable").first.click(timeout=2000)
            chooser = page.locator(".chooser:not([hidden]) .choice:not([hidden])")
            if chooser.count():
                chooser.first.click(timeout=2000)
        page.wait_for_function(
            "v => Number(document.getElementById('game-live')?.dataset.version) > v",
            arg=before,
            timeout=4000,
        )
    except Exception:
        return False  # the board moved under the click (the other side, or a timer): try again
    return True


def test_the_computer_plays_for_a_player_who_closed_the_tab_until_they_come_back(
    new_page, server, shoot
):
    alice, bob = alice_and_bob(new_page, server)

    alice.goto("/games/new/friends/")
    alice.get_by_test_id("friends-ruleset-twodice").check(force=True)
    alice.get_by_test_id(f"friends-timer-{TIMER}").check(force=True)
    alice.get_by_test_id("friends-submit").click()
    invite = alice.get_by_test_id("invite-link").input_value()
    bob.goto(invite)
    bob.get_by_test_id("join").click()
    expect(alice.get_by_test_id("start")).to_be_enabled()
    check_accessible(alice, "waiting")
    alice.get_by_test_id("start").click()
    for page in (alice, bob):
        expect(page.get_by_test_id("game-live")).to_have_attribute("data-status", "playing")
        # The acting player's card counts down from the server's deadline, on every page.
        expect(page.get_by_test_id("timer-0")).to_have_text(re.compile(r"^[1-5] s$"))
        expect(page.get_by_test_id("pause")).to_contain_text("2 left")
    game = game_id(alice)
    mark_no_reload(alice)
    shoot(alice, "timed-twodice-start")

    # Bob closes his tab. Alice plays her turns; when Bob's come, the computer plays them.
    bob_context = bob.context
    bob.close()
    gone = time.monotonic()
    # A closed page counts as here for the disconnect grace (5 s), then its opponent is told.
    expect(alice.get_by_test_id("conn-1")).to_have_text("away", timeout=10_000)
    assert time.monotonic() - gone >= 4.5  # not before the grace is over
    end = time.monotonic() + 40
    while not any(auto == "absent" for _, auto in server(actions_of, game, "bob")):
        assert time.monotonic() < end, "the computer never played for the absent player"
        play_if_my_turn(alice) or alice.wait_for_timeout(100)
    waited = time.monotonic() - gone
    assert waited >= 4.0, f"the computer played after {waited:.1f} s, before the 5 s grace"
    expect(alice.get_by_test_id("move-log")).to_contain_text(
        "bob is disconnected: the computer plays."
    )
    assert_not_reloaded(alice)  # watched live, over the WebSocket
    shoot(alice, "timed-twodice-absent")

    # Bob comes back (same browser, new tab) and plays on himself.
    bob = bob_context.new_page()
    bob.goto(f"/games/{game}/")
    expect(bob.get_by_test_id("connection")).to_have_text("Live")
    expect(alice.get_by_test_id("conn-1")).to_have_text("online")
    played_before = len(server(actions_of, game, "bob"))
    end = time.monotonic() + 40
    while not [a for a in server(actions_of, game, "bob")[played_before:] if a[1] == ""]:
        assert time.monotonic() < end, "bob never got to play again"
        if not (play_if_my_turn(bob) or play_if_my_turn(alice)):
            alice.wait_for_timeout(100)
    later = server(actions_of, game, "bob")[played_before:]
    assert ("roll", "") in later or ("move", "") in later
    # Once back, nothing of his was played for him as an absent player (timeouts could, not this).
    first_own = next(i for i, a in enumerate(later) if a[1] == "")
    assert all(auto != "absent" for _, auto in later[first_own:])
    expect(bob.get_by_test_id("game-live")).to_have_attribute("data-status", "playing")
    assert_not_reloaded(alice)
    shoot(bob, "timed-twodice-back")

    # A pause stops the clock for both and opens the chat; a message arrives live, escaped.
    alice.get_by_test_id("pause").click()
    for page in (alice, bob):
        expect(page.get_by_test_id("pause-banner")).to_contain_text("Paused by alice")
        expect(page.get_by_test_id("chat-form")).to_be_visible()
    bob.get_by_test_id("chat-input").fill("<b>brb</b> one sec")
    bob.get_by_test_id("chat-send").click()
    expect(alice.get_by_test_id("chat-text").last).to_have_text("<b>brb</b> one sec")
    expect(bob.get_by_test_id("chat-input")).to_have_value("")
    expect(alice.locator("#chat-log b")).to_have_count(0)
    check_accessible(alice, "paused")
    shoot(alice, "timed-twodice-paused")
    bob.get_by_test_id("resume").click()
    for page in (alice, bob):
        expect(page.get_by_test_id("pause-banner")).to_have_count(0)
        expect(page.get_by_test_id("chat-form")).to_be_hidden()
    assert_not_reloaded(alice)
