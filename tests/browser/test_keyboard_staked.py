"""Keyboard only, at desktop size: bob joins alice's staked room from the lobby while its list polls
every 3 s, then plays his turn with the R and number keys while alice's moves arrive over the
WebSocket. His focus is never thrown to <body>: the poll leaves the focused Join button alone, and each
live board is morphed into the one shown, so Roll (which stays put, disabled while he can't roll) keeps
the focus through every update; a token button that goes away with its move hands it back to Roll.
On the way: the tab's title says whose turn it is, the chat offers quick phrases during play and free
text after it, and a lost connection shows "Reconnecting…" until it is back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.play import (
    act,
    alice_and_bob,
    client_seed_giving,
    live,
    seeds_for,
    set_client_seed,
    state,
    version,
    wait_past,
)
from tests.ledger_checks import assert_ledger_ok

pytestmark = [pytest.mark.browser, pytest.mark.longest]

# The focused element carries a mark that only the same element (not a re-rendered copy) keeps.
MARK_FOCUS = (
    "() => { document.activeElement.__kept = true; return document.activeElement.dataset.testid; }"
)
FOCUS_KEPT = "() => document.activeElement?.__kept === true"
FOCUSED = "() => document.activeElement?.dataset?.testid || document.activeElement?.tagName"


def open_room(username: str) -> str:
    from django.contrib.auth import get_user_model

    from games.staking.rooms import do_create_staked_room
    from tests.games.webplay import member

    host = member(get_user_model().objects.get(username=username))
    return do_create_staked_room(host, "twodice", 100).pk


def seeds(gid: str):
    from games.models import Game

    return seeds_for(Game.objects.get(pk=gid))


def tab_to(page: Page, testid: str, limit: int = 80) -> None:
    for _ in range(limit):
        if page.evaluate(FOCUSED) == testid:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}; focus is on {page.evaluate(FOCUSED)}")


def polls_seen(page: Page) -> int:
    return page.evaluate("window.__polls || 0")


def play_by_mouse_until_not_my_turn(page: Page) -> None:
    for _ in range(12):
        if state(page).get("myTurn") != "1" or state(page).get("status") != "playing":
            return
        if state(page)["canRoll"] == "1":
            act(page, page.get_by_test_id("roll"))
        else:
            act(page, page.locator(".token-button.movable").first)
    raise AssertionError("alice's turn never ended")


def test_keyboard_only_join_from_the_lobby_and_a_turn_with_focus_kept(new_page, server, shoot):
    alice, bob = alice_and_bob(new_page, server)
    gid = server(open_room, "alice")
    alice.goto(f"/games/{gid}/")  # the host waits on the room's page
    expect(alice.get_by_test_id("staked-waiting")).to_be_visible()

    # The lobby: Tab to Join and stay there while the rooms list polls twice.
    bob.goto("/staked/")
    bob.evaluate(
        """() => document.body.addEventListener('htmx:afterRequest', (e) => {
               if (e.detail.elt?.dataset?.testid === 'staked-rooms-live') window.__polls = (window.__polls || 0) + 1;
           })"""
    )
    tab_to(bob, "join-staked")
    bob.evaluate(MARK_FOCUS)
    bob.wait_for_function("() => (window.__polls || 0) >= 2", timeout=12_000)
    assert bob.evaluate(FOCUS_KEPT), f"the poll moved the focus to {bob.evaluate(FOCUSED)}"
    expect(bob.get_by_test_id("join-staked")).to_be_focused()
    bob.keyboard.press("Enter")
    expect(live(bob)).to_have_attribute("data-status", "playing")
    expect(live(alice)).to_have_attribute("data-status", "playing")
    expect(bob.get_by_test_id("key-hints")).to_contain_text("R roll")
    # The first dice, chosen through alice's client seed: alice 6 and 4, then bob 6 and 3, so bob has
    # tokens to move by key.
    server_seed, client_seeds = server(seeds, gid)
    set_client_seed(alice, 0, client_seed_giving(server_seed, client_seeds, 0, [6, 4, 6, 3]))

    # Bob's focus waits on Roll (disabled: alice plays first) while alice's moves arrive live.
    assert state(bob)["myTurn"] == "0"
    roll = bob.get_by_test_id("roll")
    expect(roll).to_have_attribute("aria-disabled", "true")
    tab_to(bob, "roll")
    bob.evaluate(MARK_FOCUS)
    before = version(bob)
    play_by_mouse_until_not_my_turn(alice)
    wait_past(bob, before)
    expect(live(bob)).to_have_attribute("data-my-turn", "1")
    assert bob.evaluate(FOCUS_KEPT), f"a live update moved the focus to {bob.evaluate(FOCUSED)}"
    expect(roll).not_to_have_attribute("aria-disabled", "true")
    # Another tab would show it: the title and the icon say it's his turn.
    expect(bob).to_have_title(re.compile(r"^● Your turn · "))
    assert "favicon-turn" in bob.locator('link[rel="icon"]').get_attribute("href")
    shoot(bob, "keyboard-staked-my-turn")

    moved_by_key = False
    # His turn, by keys: Enter on the focused Roll, then the number of a movable token (and Enter on
    # the first answer when it asks which die), until the turn passes to alice.
    for _ in range(12):
        if state(bob).get("myTurn") != "1":
            break
        before = version(bob)
        if state(bob)["canRoll"] == "1":
            expect(roll).to_be_focused()
            bob.keyboard.press("Enter")
        else:
            moved_by_key = True
            token = bob.locator(".token-button.movable").first
            name = token.get_attribute("aria-label")
            assert re.search(r"^(Yellow|Blue) \d, .+: move (to|out|into|home)", name), name
            # Its number picks it when it is the only movable token of that number, else focuses the
            # first of them and Enter picks it; a token that can move more than one way asks which,
            # its first answer focused.
            key = token.get_attribute("data-key")
            same_number = bob.locator(f'.token-button.movable[data-key="{key}"]').count()
            bob.keyboard.press(key)
            if same_number > 1:
                expect(token).to_be_focused()
                bob.keyboard.press("Enter")
            if bob.locator(".chooser:not([hidden]) .choice:not([hidden])").count():
                bob.keyboard.press("Enter")
        wait_past(bob, before)
    else:
        raise AssertionError("bob's turn never ended")
    assert moved_by_key
    # The turn is over: focus came back to Roll (disabled again), not to <body>.
    expect(roll).to_be_focused()
    expect(roll).to_have_attribute("aria-disabled", "true")
    expect(bob).not_to_have_title(re.compile("Your turn"))
    shoot(bob, "keyboard-staked-after-turn")

    # During play the chat offers the quick phrases (no free text); one reaches alice live.
    expect(bob.get_by_test_id("chat-form")).to_be_hidden()
    tab_to(bob, "quick-phrase-1")
    bob.keyboard.press("Enter")
    expect(alice.get_by_test_id("chat-text").last).to_have_text("Good luck!")

    bob.once("dialog", lambda dialog: dialog.accept())
    bob.get_by_test_id("resign").click()
    expect(live(alice)).to_have_attribute("data-status", "finished")
    # After the game: free text again, "gg" both ways.
    alice.get_by_test_id("chat-input").fill("gg")
    alice.get_by_test_id("chat-send").click()
    expect(bob.get_by_test_id("chat-text").last).to_have_text("gg")
    # A lost connection says so until it is back.
    alice.context.set_offline(True)
    expect(alice.get_by_test_id("connection-banner")).to_have_text("Reconnecting…")
    expect(alice.get_by_test_id("connection")).to_have_text("Reconnecting…")
    alice.context.set_offline(False)
    expect(alice.get_by_test_id("connection")).to_have_text("Live", timeout=20_000)
    expect(alice.get_by_test_id("connection-banner")).to_be_hidden()
    server(assert_ledger_ok)
