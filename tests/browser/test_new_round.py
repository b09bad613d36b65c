"""A new round in a friends room starts only when both players agree, and both browsers see it live."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.play import (
    assert_not_reloaded,
    live,
    mark_no_reload,
    open_duel_room,
    start_room,
)

pytestmark = pytest.mark.browser


def test_a_new_round_needs_both_players(new_page, server, shoot_sizes):
    alice, bob = open_duel_room(new_page, server)
    start_room(alice, bob)
    mark_no_reload(alice, bob)
    for page in (alice, bob):
        expect(live(page)).to_have_attribute("data-round", "1")

    alice.once("dialog", lambda dialog: dialog.accept())  # "Ask to start a new round?"
    alice.get_by_test_id("new-round").click()
    expect(alice.get_by_test_id("new-round")).to_be_disabled()
    expect(alice.get_by_test_id("new-round")).to_contain_text("Waiting for the others")
    # Bob is asked, live; the round has not changed for anyone yet.
    expect(bob.get_by_test_id("new-round-asked")).to_be_visible()
    expect(bob.get_by_test_id("new-round")).to_have_text("Agree to a new round")
    expect(live(alice)).to_have_attribute("data-round", "1")
    expect(live(bob)).to_have_attribute("data-round", "1")
    shoot_sizes(bob, "new-round-asked")

    bob.get_by_test_id("new-round").click()
    for page in (alice, bob):
        expect(live(page)).to_have_attribute("data-round", "2")
        expect(live(page)).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("move-log")).to_contain_text("Round 2")
    expect(alice.get_by_test_id("roll")).to_be_visible()  # red starts every duel round
    expect(bob.get_by_test_id("new-round-asked")).to_have_count(0)
    assert_not_reloaded(alice, bob)
    shoot_sizes(alice, "new-round-started")
