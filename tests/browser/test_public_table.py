"""A public table in real browsers: four accounts, each in a browser context of their own, press Play now
on the home page for a 4-table of classic; the first three wait on the waiting screen (how many wait,
how long, whom it looks for), which survives a reload, and the fourth press takes all four to the
table by itself (the push, or the screen's poll). A fifth context finds the table on Live now and
watches it from there as a spectator.
Three players resign one after another (the computer plays each resigned seat on, and each is placed
after everyone still playing), so the round ends with every place decided: the spectator's board
follows it to the result, and the leaderboard's "against people" board shows 10, 6, 3 and 0 points
and everyone's rating moved. axe checks each state; the waiting screen and the table fit 390 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, check_accessible
from tests.browser.play import live, log_in, make_user

pytestmark = [pytest.mark.browser, pytest.mark.longest]

NAMES = ("ann", "ben", "cat", "dan")


def fits_a_phone(page) -> None:
    page.set_viewport_size(PHONE)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways at 390 px ({width} px)"
    check_accessible(page, "at 390 px")


def press_play_now(page) -> None:
    page.goto("/")
    form = page.get_by_test_id("play-now-form")
    form.get_by_test_id("play-now-ruleset-classic").check(force=True)
    form.get_by_test_id("play-now-players-4").check(force=True)
    form.get_by_test_id("play-now-timer-10").check(force=True)
    form.get_by_test_id("play-now").click()


def test_public_table_four_strangers_play_now_a_spectator_follows_and_points_land(new_page, server):
    for name in NAMES:
        server(make_user, name)
    pages = {}
    for name in NAMES:
        pages[name] = new_page()
        log_in(pages[name], name)
    ann, ben, cat, dan = (pages[n] for n in NAMES)
    ann.goto("/")  # the front door: Play now's card fits a phone too
    expect(ann.get_by_test_id("mode-play-now")).to_be_visible()
    fits_a_phone(ann)
    ann.set_viewport_size(DESKTOP)

    for page in (ann, ben, cat):
        press_play_now(page)
        expect(page.get_by_test_id("play-now-waiting")).to_be_visible()
        expect(page.get_by_test_id("play-now-table")).to_have_text("Classic for 4, 10 s a move")
    expect(ann.get_by_test_id("play-now-waiting-count")).to_have_text("3", timeout=10_000)
    expect(ann.get_by_test_id("play-now-range-band")).to_have_text(
        re.compile(r"^\d+\u2013\d+$|^anyone$")
    )
    check_accessible(ann, "waiting for a table")
    ben.reload()  # a reload keeps the place in the list
    expect(ben.get_by_test_id("play-now-waiting-count")).to_have_text("3")
    fits_a_phone(cat)

    press_play_now(dan)  # the fourth: the table starts, and the waiting pages go to it
    for page in (ann, ben, cat, dan):
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=15_000)
    url = dan.url
    assert all(page.url == url for page in (ann, ben, cat))
    check_accessible(dan, "a public table in play")

    # A stranger finds the table on Live now (its list polls: the table may come a poll later) and
    # watches it from there.
    spectator = new_page()
    spectator.goto("/live/")
    game_id = re.search(r"/games/([^/]+)/", url).group(1)
    watch = spectator.locator(f'[data-game="{game_id}"]').get_by_test_id("live-watch")
    expect(watch).to_be_visible(timeout=20_000)
    check_accessible(spectator, "Live now listing a public table")
    watch.click()
    expect(live(spectator)).to_have_attribute("data-status", "playing")
    assert spectator.url == url
    expect(spectator.get_by_test_id("resign")).to_have_count(0)  # watching, not playing

    # dan leaves first (last place), then cat, then ben; ann is the last still playing.
    for name, page in (("dan", dan), ("cat", cat), ("ben", ben)):
        page.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
        page.get_by_test_id("resign").click()
        expect(spectator.get_by_test_id("move-log")).to_contain_text(
            f"{name} resigned", timeout=15_000
        )
    for page in (spectator, ann):
        expect(live(page)).to_have_attribute("data-status", "finished", timeout=15_000)
    result = spectator.get_by_test_id("result")
    for place, name in enumerate(("ann", "ben", "cat", "dan"), start=1):
        expect(result.get_by_test_id(f"result-place-{place}")).to_contain_text(name)
        expect(result.get_by_test_id(f"rating-change-{place}")).to_have_text(
            re.compile(r"^rating [+-]\d+$")
        )
    expect(ann.get_by_test_id("play-now-again")).to_be_visible()
    check_accessible(spectator, "a finished public table, watched")
    fits_a_phone(ann)

    for name, points in zip(NAMES, (10, 6, 3, 0), strict=True):
        pages[name].goto("/leaderboard/")  # against people, this week: the default board
        expect(pages[name].get_by_test_id("my-rank")).to_contain_text(
            f"with {points} point{'s' if points != 1 else ''}"
        )
    expect(ann.get_by_test_id("standings")).to_contain_text("dan")
    expect(ann.get_by_test_id("rating-board")).to_contain_text("ann")
