"""On a 390 px phone: every player's name can be read whole, every control is a 24 px target, and a tap
anywhere on a movable token's square moves it (the token's disc is about 17 px there; the square
about 25)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.play import (
    NO_AUTOMOVE,
    client_seed_giving,
    game_id,
    seeds_for,
    set_client_seed,
    token_progress,
    version,
    wait_past,
)

pytestmark = pytest.mark.browser


def _seeds(gid):
    from games.models import Game

    return seeds_for(Game.objects.get(pk=gid))


def test_on_a_phone_names_read_whole_and_a_tap_on_a_tokens_square_moves_it(new_page, server):
    page = new_page(PHONE, is_mobile=True, has_touch=True)
    page.context.add_init_script(NO_AUTOMOVE)
    page.goto("/games/new/computer/")
    page.get_by_test_id("computer-ruleset-classic").check(force=True)
    page.get_by_test_id("computer-players-4").check(force=True)
    page.get_by_test_id("computer-submit").click()
    expect(page.get_by_test_id("game-page")).to_be_visible()
    gid = game_id(page)
    server_seed, seeds = server(_seeds, gid)
    set_client_seed(page, 0, client_seed_giving(server_seed, seeds, 0, [6]))

    names = page.eval_on_selector_all(
        ".player-name",
        """els => els.map(e => ({text: e.textContent.trim(), cut: e.scrollWidth > e.clientWidth + 1,
                                 right: e.getBoundingClientRect().right}))""",
    )
    assert len(names) == 4
    for name in names:
        assert not name["cut"] and name["right"] <= PHONE["width"], names
    expect(page.get_by_test_id("player-1")).to_contain_text("computer")  # e.g. "Green computer"
    # Every control of the game page is a target of at least 24 x 24 px (WCAG 2.5.8).
    small = page.eval_on_selector_all(
        ".game-page button, .game-page summary, .game-page select",
        """els => els.filter(e => e.offsetParent !== null).map(e => {
                 const r = e.getBoundingClientRect();
                 return {name: e.dataset.testid || e.textContent.trim(), w: r.width, h: r.height};
               }).filter(t => t.w < 24 || t.h < 24)""",
    )
    assert not small, small

    before = version(page)
    page.get_by_test_id("roll").tap()
    wait_past(page, before)
    page.evaluate("document.getElementById('tok-red-0').scrollIntoView({block: 'center'})")
    board = page.get_by_test_id("board").bounding_box()
    disc = page.locator("#tok-red-0 .tok-body").bounding_box()
    half_square = 20 * board["width"] / 600  # a square is 40 of the board's 600 units
    assert half_square * 2 >= 24  # the square is a target a finger can hit (the disc is smaller)
    before = version(page)
    # Near the square's corner: well off the disc, still the token's square.
    page.touchscreen.tap(
        disc["x"] + disc["width"] / 2 - half_square * 0.85,
        disc["y"] + disc["height"] / 2 - half_square * 0.85,
    )
    wait_past(page, before)
    assert token_progress(page, "red", 0) == 0
