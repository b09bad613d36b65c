"""A POST's answer that crosses a push: one that arrives after the push of the same change (the push
has already morphed the board and taken away the form that sent the POST: Start, Resign) must still
morph into the one board, not land inside it as a second #game-live (seen in CI as "resolved to 2
elements"); one that left out a ground the page no longer shows brings the whole board instead."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.play import act, live, open_duel_room, same_version, start_room, state

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


def test_an_answer_whose_ground_the_page_no_longer_shows_brings_the_whole_board_without_a_socket(
    new_page, server
):
    """The answer left the board's ground out for a page showing another ground (a push changed it
    while the POST was out), and the page's socket is closed: the page fetches the whole board at once
    instead of showing the old one until a socket is back."""
    alice, bob = open_duel_room(new_page, server)
    start_room(alice, bob)
    player = alice if state(alice)["myTurn"] == "1" else bob
    # The page's socket is closed for good: no push, and no resync over it, can bring a board.
    player.route_web_socket("**/ws/games/**", lambda ws: ws.close(code=4429))
    player.reload()
    expect(player.get_by_test_id("connection-banner")).to_contain_text("Disconnected")
    shown = player.locator("#board-ground").get_attribute("data-ground")

    def ground_changed_meanwhile(route: Route) -> None:
        response = route.fetch()
        body = response.text()
        assert f'data-ground="{shown}" hx-preserve' in body  # the answer left the ground out
        body = body.replace(f'data-ground="{shown}" hx-preserve', 'data-ground="0000" hx-preserve')
        route.fulfill(response=response, body=body)

    player.route("**/roll", ground_changed_meanwhile)
    act(player, player.get_by_test_id("roll"))  # the board moves on: the whole one, fetched
    assert player.locator("#board-ground").get_attribute("data-ground") == shown
    assert player.locator("#board-ground > *").count() > 50  # the yards and squares are all there
    same_version(player, alice if player is bob else bob)
