"""A quick game against the computer (classic, two tokens each), played to the end by clicks."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessible
from tests.browser.play import NO_AUTOMOVE, game_id, state, version, wait_past

pytestmark = [pytest.mark.browser, pytest.mark.longest]


def test_quick_game_against_the_computer_to_the_end(new_page, shoot_sizes):
    page = new_page()
    page.context.add_init_script(NO_AUTOMOVE)  # every move of ours is a click
    page.goto("/games/new/computer/")
    page.get_by_test_id("computer-ruleset-classic").check(force=True)
    page.get_by_test_id("computer-players-2").check(force=True)
    page.get_by_test_id("computer-tokens-2").check(force=True)
    page.get_by_test_id("computer-level-2").select_option("random")
    page.get_by_test_id("computer-submit").click()
    expect(page.get_by_test_id("game-page")).to_be_visible()
    expect(page.get_by_test_id("connection")).not_to_have_text("Connecting…")
    gid = game_id(page)

    clicks, shot, deadline = 0, False, time.monotonic() + 120
    while (now := state(page))["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish in two minutes"
        before = int(now["version"])
        if now.get("myTurn") == "1":
            if now.get("canRoll") == "1":
                page.get_by_test_id("roll").click()
            else:
                page.locator(".token-button.movable").first.click()
            clicks += 1
            if clicks == 12 and not shot:
                shot = True
        # Our click's answer, or the computer's move pushed over the WebSocket.
        wait_past(page, before, timeout=15_000)
        if shot is True:
            shoot_sizes(page, "vs-computer-mid-game")
            shot = None

    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    expect(result.get_by_role("heading")).to_have_text(re.compile(r"^(You win|.+ wins)!$"))
    # Points as stored: a guest's round against the computer is ranked for nobody, and says why.
    places = page.get_by_test_id("result").locator("ol.places")
    expect(places).to_contain_text("not counted: guests aren't ranked")
    expect(places).to_contain_text("not counted: computers aren't ranked")
    expect(places).not_to_contain_text("pts")
    assert clicks > 4
    check_accessible(page, "finished")
    shoot_sizes(page, "vs-computer-finished")

    # The fair-dice check of the game just played, from its own link.
    record = page.request.get(f"/games/{gid}/record.json").json()
    rolls = sum("roll" in a for a in record["actions"])
    assert version(page) > rolls
    page.get_by_test_id("verify-link").click()
    expect(page.get_by_test_id("verify-result")).to_have_text(
        re.compile(rf"^All {rolls} rolls verified"), timeout=15_000
    )
    shoot_sizes(page, "vs-computer-verified")
