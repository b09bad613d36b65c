"""A POST's answer that arrives after the push of the same change: the push has already morphed the
board and taken away the form that sent the POST (Start, Resign), and the late answer must still morph
into the one board, not land inside it as a second #game-live (seen in CI as "resolved to 2 elements")."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.play import live, open_duel_room

pytestmark = pytest.mark.browser

LATE = 1.0  # seconds the answer is held back: the push (sent at commit) is in by then


def answer_late(page: Page, path_end: str) -> None:
    """The page's POSTs to .../<path_end> reach the server at once; their answers come LATE s later."""

    def hold(route: Route) -> None:
        response = route.fetch()
        time.sleep(LATE)  # the browser goes on meanwhile: the socket's push arrives and morphs
        route.fulfill(response=response)

    page.route(f"**/{path_end}", hold)


def boards(page: Page) -> int:
    return page.evaluate("() => document.querySelectorAll('#game-live').length")


def test_a_late_answer_to_start_and_to_resign_leaves_one_board(new_page, server):
    alice, bob = open_duel_room(new_page, server)
    answer_late(alice, "start")
    answer_late(bob, "resign")

    alice.get_by_test_id("start").click()
    expect(live(bob)).to_have_attribute("data-status", "playing")  # bob has no late answer
    alice.wait_for_timeout(LATE * 1000 + 500)  # alice's answer is in
    assert boards(alice) == 1
    expect(live(alice)).to_have_attribute("data-status", "playing")

    bob.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    bob.get_by_test_id("resign").click()
    expect(live(alice)).to_have_attribute("data-status", "finished")
    bob.wait_for_timeout(LATE * 1000 + 500)
    assert boards(bob) == 1
    expect(live(bob)).to_have_attribute("data-status", "finished")
    # The late answer's board is the same version as the push's: nothing is told twice or undone.
    expect(bob.get_by_test_id("resign")).to_have_count(0)
