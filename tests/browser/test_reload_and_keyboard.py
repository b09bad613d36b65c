"""Against the computer: a reload mid-turn gives the player their seat and the die they rolled back,
and the game can be played with the keyboard alone. The first dice are chosen through the page's
client-seed field (before the first roll), from the server seed the test reads from the database."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.play import (
    NO_AUTOMOVE,
    client_seed_giving,
    game_id,
    seeds_for,
    set_client_seed,
    state,
    token_progress,
    version,
    wait_past,
)

pytestmark = pytest.mark.browser


def _seeds(gid):
    from games.models import Game

    return seeds_for(Game.objects.get(pk=gid))


def start_game(page, server, first_dice: list[int]) -> str:
    """A classic quick game against one computer whose first dice (ours: red starts) are known."""
    page.context.add_init_script(NO_AUTOMOVE)
    page.goto("/games/new/computer/")
    page.get_by_test_id("computer-ruleset-classic").check(force=True)
    page.get_by_test_id("computer-players-2").check(force=True)
    page.get_by_test_id("computer-tokens-2").check(force=True)
    page.get_by_test_id("computer-submit").click()
    expect(page.get_by_test_id("game-page")).to_be_visible()
    gid = game_id(page)
    server_seed, seeds = server(_seeds, gid)
    set_client_seed(page, 0, client_seed_giving(server_seed, seeds, 0, first_dice))
    return gid


def test_a_reload_mid_turn_restores_the_seat_and_the_rolled_die(new_page, server, shoot_sizes):
    page = new_page()
    gid = start_game(page, server, [6])
    before = version(page)
    page.get_by_test_id("roll").click()
    wait_past(page, before)
    expect(page.get_by_test_id("die-0")).to_have_attribute("data-die", "6")
    rolled_at = version(page)

    page.reload()
    expect(page.get_by_test_id("connection")).not_to_have_text("Connecting…")
    assert page.url.endswith(f"/games/{gid}/")
    assert version(page) == rolled_at  # nothing happened behind our back
    expect(page.get_by_test_id("player-0")).to_have_class(re.compile(r"\bmine\b"))  # our seat
    expect(page.get_by_test_id("player-0")).to_contain_text("You")
    expect(page.get_by_test_id("die-0")).to_have_attribute("data-die", "6")
    expect(page.get_by_test_id("your-turn")).to_contain_text("pick a token")
    assert state(page)["awaiting"] == "move"
    expect(page.get_by_test_id("move-red-0")).to_be_enabled()
    # The die is not rolled twice: Roll stays in its place, disabled.
    expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "true")
    shoot_sizes(page, "reload-pending-die")

    page.get_by_test_id("move-red-0").click()  # and the pending die can still be played
    wait_past(page, rolled_at)
    assert token_progress(page, "red", 0) == 0


def test_keyboard_only_roll_and_move(new_page, server, shoot_sizes):
    page = new_page()
    start_game(page, server, [6, 3])
    page.locator("body").click(position={"x": 1, "y": 1})  # no element focused that takes keys

    before = version(page)
    page.keyboard.press("r")  # R rolls
    wait_past(page, before)
    expect(page.get_by_test_id("die-0")).to_have_attribute("data-die", "6")

    before = version(page)
    page.keyboard.press("1")  # 1 picks token 1: out of the yard
    wait_past(page, before)
    assert token_progress(page, "red", 0) == 0

    # The 6 earned another roll: this time Tab to the Roll button and press Enter.
    roll_button = page.get_by_test_id("roll")
    expect(roll_button).to_be_visible()
    for _ in range(60):
        if page.evaluate("document.activeElement?.dataset?.testid") == "roll":
            break
        page.keyboard.press("Tab")
    expect(roll_button).to_be_focused()
    before = version(page)
    page.keyboard.press("Enter")
    wait_past(page, before)
    expect(page.get_by_test_id("die-0")).to_have_attribute("data-die", "3")

    before = version(page)
    page.keyboard.press("1")
    wait_past(page, before)
    assert token_progress(page, "red", 0) == 3
    # Narrated (in the log: the message line may already tell the computer's next roll, 50 ms on).
    expect(page.get_by_test_id("move-log")).to_contain_text(re.compile("Red 1", re.I))
    shoot_sizes(page, "keyboard-play")
