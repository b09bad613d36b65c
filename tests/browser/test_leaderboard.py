"""A finished game reaches the leaderboard and the player's page, in a real browser on the real stack."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessible
from tests.browser.play import live, open_duel_room, start_room

pytestmark = pytest.mark.browser


def test_a_resigned_duel_puts_the_winner_on_the_leaderboard_with_a_chart(new_page, server, shoot):
    alice, bob = open_duel_room(new_page, server)
    start_room(alice, bob)
    bob.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    bob.get_by_test_id("resign").click()
    expect(live(alice)).to_have_attribute("data-status", "finished")
    # The end of the rated round shows the winner's rating change.
    expect(alice.get_by_test_id("rating-change-1")).to_have_text(re.compile(r"^rating \+\d+$"))
    room_id = alice.url.rstrip("/").rsplit("/", 1)[-1]

    alice.get_by_role("navigation", name="Main").get_by_role("link", name="Leaderboard").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("Leaderboard")
    expect(alice.get_by_test_id("my-rank")).to_contain_text("#1 with 10 points")
    alice.get_by_role("link", name="Jump to my rank").click()
    mine = alice.locator("#me")
    expect(mine).to_contain_text("alice")
    expect(mine.locator("td").nth(2)).to_have_text("10")
    expect(alice.get_by_test_id("standings")).to_contain_text("bob")
    expect(alice.get_by_test_id("rating-board")).to_contain_text("Rating")
    check_accessible(alice)  # reached by clicks: checked here, not by a goto
    shoot(alice, "leaderboard")

    mine.get_by_role("link", name="alice").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("alice")
    chart = alice.get_by_test_id("points-chart")
    expect(chart).to_be_visible()
    # One week of points: one row, its date in words and its points as a number.
    expect(chart.locator("tbody tr")).to_have_count(1)
    expect(chart.locator("tbody tr")).to_contain_text("10")
    expect(chart).not_to_contain_text(re.compile(r"\d{4}-\d\d-\d\d"))
    expect(alice.get_by_test_id("places-chart")).to_contain_text("Duel")
    expect(alice.get_by_test_id("rating-duel")).to_contain_text("Duel · 1 round · provisional")
    expect(alice.get_by_test_id("history")).to_contain_text("1 of 2")
    check_accessible(alice)
    shoot(alice, "player-page")

    alice.get_by_test_id("history").get_by_role("link", name="Replay").click()
    expect(alice).to_have_url(re.compile(r"/replays/[\w-]+/$"))
    assert room_id not in alice.url and room_id not in alice.content()
    expect(alice.get_by_test_id("replay")).to_be_visible()
