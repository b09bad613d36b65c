"""Pass & play with UP Way pairs (places + pairs): two tokens on one square move together by half the
roll. The dice are known in advance: the test reads the game's server seed and picks the first seat's
client seed (through the page, before the first roll) so that red rolls 6, 6, 4."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.play import (
    NO_AUTOMOVE,
    client_seed_giving,
    game_id,
    move,
    roll,
    seeds_for,
    set_client_seed,
    token_progress,
)

pytestmark = pytest.mark.browser


def _seeds(gid):
    from games.models import Game

    return seeds_for(Game.objects.get(pk=gid))


def test_a_pair_moves_together_by_half_the_roll(new_page, server, shoot_sizes):
    page = new_page(reduced_motion="no-preference")  # the moves animated, as most players see them
    page.context.add_init_script(NO_AUTOMOVE)
    page.goto("/games/new/local/")
    page.get_by_test_id("local-ruleset-places").check(force=True)
    page.get_by_test_id("local-players-2").check(force=True)
    page.get_by_test_id("local-pairs").check(force=True)
    page.get_by_test_id("local-name-1").fill("Ann")
    page.get_by_test_id("local-name-2").fill("Ben")
    page.get_by_test_id("local-submit").click()
    expect(page.get_by_test_id("game-page")).to_contain_text("UP Way pairs")

    server_seed, seeds = server(_seeds, game_id(page))
    set_client_seed(page, 0, client_seed_giving(server_seed, seeds, 0, [6, 6, 4]))

    roll(page)  # 6: Ann brings red 1 out onto its start square
    expect(page.get_by_test_id("die-0")).to_have_attribute("data-die", "6")
    move(page, "move-red-0")
    assert token_progress(page, "red", 0) == 0
    roll(page)  # 6 again (the 6 earned a roll): red 2 comes out too, and the two make a pair
    move(page, "move-red-1")
    assert [token_progress(page, "red", i) for i in (0, 1)] == [0, 0]

    roll(page)  # 4: on its safe start square the pair may split or move together
    expect(page.get_by_test_id("die-0")).to_have_attribute("data-die", "4")
    page.get_by_test_id("move-red-0").click()
    together = page.get_by_test_id("move-red-0-pair-4")
    alone = page.get_by_test_id("move-red-0-single-4")
    expect(together).to_be_visible()
    expect(alone).to_be_visible()
    shoot_sizes(page, "pairs-choice")
    move(page, "move-red-0-pair-4")

    # Half of 4: both tokens two squares on, still together; the 4 earned nothing, so Ben is up.
    assert [token_progress(page, "red", i) for i in (0, 1)] == [2, 2]
    assert [token_progress(page, "red", i) for i in (2, 3)] == [-1, -1]
    expect(page.get_by_test_id("player-1")).to_have_attribute("aria-current", "true")
    expect(page.get_by_test_id("roll")).to_be_visible()
    shoot_sizes(page, "pairs-moved")
