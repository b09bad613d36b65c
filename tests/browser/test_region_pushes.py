"""A push carries the regions of the board that changed, moving the page from the version it names: a
page that missed one (a push lost, or its socket closed for an action) asks for the whole board and
shows what a fresh render shows; and the focus stays where the player left it through every region
swap, on the board's own controls as in the side panels."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, check_accessible
from tests.browser.play import (
    game_id,
    log_in,
    open_duel_room,
    play_a_turn,
    same_version,
    start_room,
    version,
)
from tests.browser.test_pushed_boards import fresh_board, shown_board
from tests.factories import make_user

pytestmark = pytest.mark.browser

DELTA = '<div id="game-live" hx-swap-oob="none" data-from="'


class Relay:
    """The page's socket through a relay the test controls: it can drop the server's pushes, or close
    the socket (as a network that went away: the page reconnects by itself), and it notes what the
    page sends."""

    def __init__(self, page: Page) -> None:
        self.dropping = 0  # pushes of regions still to drop
        self.dropped = 0
        self.sent: list[str] = []
        self.sockets: list = []
        page.route_web_socket("**/ws/games/**", self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        self.sockets.append(ws)

        def from_server(message) -> None:
            if self.dropping and isinstance(message, str) and message.startswith(DELTA):
                self.dropping -= 1
                self.dropped += 1
                return
            ws.send(message)

        def from_page(message) -> None:
            self.sent.append(message if isinstance(message, str) else "")
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    def close(self) -> None:
        """Close the page's socket as a server restart would (1012: the page reconnects)."""
        self.sockets[-1].close(code=1012, reason="restart")

    def resyncs(self) -> list[int]:
        return [json.loads(m)["resync"] for m in self.sent if m.startswith('{"resync"')]


def fits_a_phone(page: Page) -> bool:
    page.set_viewport_size(PHONE)
    wide = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(DESKTOP)
    return wide <= PHONE["width"]


def test_a_page_that_missed_a_push_asks_for_the_whole_board_and_shows_the_right_one(
    new_page, server
):
    server(make_user, "carol")
    alice, bob = open_duel_room(new_page, server)
    carol = new_page()
    relay = Relay(carol)  # carol watches, her socket through the relay
    log_in(carol, "carol")
    carol.goto(f"/games/{game_id(alice)}/")
    expect(carol.get_by_test_id("connection")).to_have_text("Live")
    start_room(alice, bob)
    player, _ = play_a_turn(alice, bob)
    same_version(player, carol)

    # One push lost on its way: the next one moves from a version carol's page doesn't show.
    relay.dropping = 1
    missed = version(carol)
    play_a_turn(alice, bob)
    player, _ = play_a_turn(alice, bob)
    assert relay.dropped == 1
    same_version(player, carol)
    assert -1 in relay.resyncs(), relay.sent  # carol's page asked for the whole board
    assert version(carol) > missed + 1
    assert shown_board(carol) == fresh_board(carol)
    check_accessible(carol, "after a resync")
    assert fits_a_phone(carol)

    # The socket closed for one action: the page reconnects, names the version it shows, and gets
    # the board it missed.
    before = version(carol)
    relay.close()
    player, _ = play_a_turn(alice, bob)
    expect(carol.get_by_test_id("connection")).to_have_text("Live", timeout=10_000)
    same_version(player, carol)
    assert version(carol) > before and before in relay.resyncs()
    assert shown_board(carol) == fresh_board(carol)
    # And the pushes after it apply again.
    player, _ = play_a_turn(alice, bob)
    same_version(player, carol)
    assert shown_board(carol) == fresh_board(carol)


def test_the_focus_stays_through_every_region_swap(new_page, server):
    alice, bob = open_duel_room(new_page, server)
    start_room(alice, bob)
    for n in range(8):
        # Each waiting player keeps the focus where they put it while the other plays: Roll (there
        # between turns, aria-disabled) on one page, the move log on the other.
        player = alice if alice.locator("#game-live").get_attribute("data-my-turn") == "1" else bob
        waiting = bob if player is alice else alice
        if n % 2:
            waiting.get_by_test_id("move-log").focus()
            focused = "move-log"
        else:
            waiting.get_by_test_id("roll").focus()
            focused = "roll"
        before = version(waiting)
        play_a_turn(alice, bob)
        assert version(waiting) > before
        assert waiting.evaluate("() => document.activeElement?.dataset.testid") == focused, n
    check_accessible(alice, "mid-game, after region pushes")
