"""A friends room: two accounts in two browsers play `duel` from the invitation link, and each sees
the other's every move live, without reloading."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessible
from tests.browser.play import (
    act,
    assert_not_reloaded,
    live,
    mark_no_reload,
    open_duel_room,
    same_version,
    start_room,
    state,
)

pytestmark = pytest.mark.browser

ACTIONS = 16


def test_two_friends_play_duel_and_see_each_others_moves_live(new_page, server, shoot_sizes):
    alice, bob = open_duel_room(new_page, server)
    mark_no_reload(alice, bob)
    start_room(alice, bob)
    # Once the room has started, the invitation panel goes away on the host's page, with no reload.
    expect(alice.get_by_test_id("invite")).to_be_hidden()
    expect(alice.get_by_test_id("player-0")).to_contain_text("alice")
    expect(alice.get_by_test_id("player-0")).to_contain_text("(you)")
    expect(bob.get_by_test_id("player-1")).to_contain_text("(you)")
    expect(alice.get_by_test_id("roll")).to_be_visible()  # red starts every duel round
    expect(bob.get_by_test_id("turn-of")).to_contain_text("alice")

    seen_moves = {"alice": 0, "bob": 0}
    for _ in range(ACTIONS):
        player, other, name = (
            (alice, bob, "alice") if state(alice)["myTurn"] == "1" else (bob, alice, "bob")
        )
        assert state(player)["myTurn"] == "1", "neither page says it is its turn"
        if state(player)["canRoll"] == "1":
            act(player, player.get_by_test_id("roll"))
        else:
            act(player, player.locator(".token-button.movable").first)
            seen_moves[name] += 1
        same_version(player, other)  # pushed to the other browser over its WebSocket
        expect(other.get_by_test_id("message")).to_have_text(
            player.get_by_test_id("message").inner_text()
        )
        for colour in ("red", "blue"):
            for index in range(4):
                token = f"token-{colour}-{index}"
                assert alice.get_by_test_id(token).get_attribute(
                    "data-progress"
                ) == bob.get_by_test_id(token).get_attribute("data-progress")

    assert_not_reloaded(alice, bob)
    log = bob.get_by_test_id("move-log")
    expect(log).to_contain_text("alice rolled")
    expect(log).to_contain_text("bob rolled")
    assert int(live(alice).get_attribute("data-version")) == int(
        live(bob).get_attribute("data-version")
    )
    check_accessible(alice, "mid-game")
    shoot_sizes(alice, "duel-room-alice")
    shoot_sizes(bob, "duel-room-bob")
