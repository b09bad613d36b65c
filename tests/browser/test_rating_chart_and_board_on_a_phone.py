"""The rating chart and the rating board on a 390 px phone: the line and its table fit without
clipping; the board opens on the rule set the player plays most, marks them, and a rule set's tab
swaps the board in place. Every state is checked with axe in the light and the dark scheme."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_accessible
from tests.browser.play import log_in

pytestmark = pytest.mark.browser


def seed() -> None:
    """alice: three rated duels over four weeks (one without play), and a settled rival at places."""
    from django.utils import timezone

    from games import actions
    from leaderboard.models import Rating, Result
    from tests import factories as f

    alice, bob, cat = f.make_user("alice"), f.make_user("bob"), f.make_user("cat")
    for _ in range(3):
        actions.do_resign(f.room([alice, bob], "duel").pk, f.member(bob))
    rated = Result.objects.filter(user=alice).order_by("pk")
    for weeks, result in zip((3, 1, 0), rated, strict=True):
        Result.objects.filter(pk=result.pk).update(
            finished_at=result.finished_at - timedelta(weeks=weeks)
        )
    Rating.objects.create(
        user=cat, ruleset="places", mu=30, sigma=4, value=1800, games=40,
        last_played=timezone.now(),
    )  # fmt: skip


def fits_the_phone(page, test_id: str) -> None:
    box = page.get_by_test_id(test_id).bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (test_id, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_rating_chart_and_board_read_on_a_phone_and_the_board_swaps_in_place(new_page, server):
    server(seed)
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    log_in(page, "alice")

    page.goto("/u/alice/")
    chart = page.get_by_test_id("rating-chart-duel")
    expect(chart.locator("svg.rating-line")).to_be_visible()
    expect(chart.get_by_role("img")).to_have_attribute(
        "aria-label",
        re.compile(r"^Duel rating from 1500 before .+; highest \d+, lowest \d+\."),
    )
    expect(chart.locator("tbody tr")).to_have_count(3)  # three weeks played, one without
    expect(chart.locator("tbody tr").first).to_contain_text("+")
    assert chart.locator("path.rating-idle").get_attribute("d")  # the gap, dotted
    expect(page.get_by_test_id("provisional-note")).to_be_visible()
    for test_id in ("rating-chart-duel", "rating-table-duel", "history"):
        fits_the_phone(page, test_id)
    expect(page.get_by_test_id("history")).to_contain_text("rating +")

    page.goto("/leaderboard/")
    board = page.get_by_test_id("rating-board")
    expect(page.get_by_test_id("rating-tab-duel")).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("rating-provisional")).to_contain_text("alice (you)")
    fits_the_phone(page, "rating-board")

    page.evaluate("window.boardNotReloaded = true")
    page.get_by_test_id("rating-tab-places").click()
    expect(page.get_by_test_id("rating-tab-places")).to_have_attribute("aria-current", "page")
    expect(board.get_by_test_id("rating-ranked")).to_contain_text("cat")
    assert page.evaluate("window.boardNotReloaded === true")  # swapped in place, not loaded
    expect(page).to_have_url(re.compile(r"rating=places"))
    fits_the_phone(page, "rating-board")
    check_accessible(page, "the places board, swapped in")
