"""A staked room in two real browsers: one account opens a staked twodice room, the other joins it from
the lobby; they play a few turns, one resigns; both see the coins won or lost and their new balances
live, and the wallet pages show the stake, the payout and the house's cut."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.play import (
    alice_and_bob,
    live,
    play_a_turn,
)
from tests.ledger_checks import assert_ledger_ok

pytestmark = [pytest.mark.browser, pytest.mark.longest]

TURNS = 6


def test_a_staked_room_from_lobby_to_payout(new_page, server, shoot):
    alice, bob = alice_and_bob(new_page, server)
    expect(alice.get_by_test_id("nav-balance")).to_have_text("1,000 coins")

    alice.get_by_role("navigation", name="Main").get_by_role("link", name="Staked rooms").click()
    form = alice.get_by_test_id("staked-create-form")
    form.get_by_label("Stake").fill("100")
    form.get_by_label("Rule set").select_option("twodice")
    alice.get_by_test_id("staked-create").click()
    expect(alice.get_by_test_id("staked-waiting")).to_contain_text("100 coins each")
    expect(alice.get_by_test_id("nav-balance")).to_have_text("900 coins")

    bob.goto("/staked/")
    room = bob.get_by_test_id("staked-room")
    expect(room).to_contain_text("alice")
    expect(room).to_contain_text("Two dice")
    room.get_by_test_id("join-staked").click()
    for page in (alice, bob):  # alice's page hears of it over its WebSocket
        expect(live(page)).to_have_attribute("data-status", "playing")
    shoot(bob, "staked-room-playing")

    for _ in range(TURNS):
        play_a_turn(alice, bob)

    bob.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    bob.get_by_test_id("resign").click()
    expect(live(alice)).to_have_attribute("data-status", "finished")  # pushed, no reload
    expect(alice.get_by_test_id("stake-mine")).to_contain_text("You won 80 coins.")
    expect(alice.get_by_test_id("stake-balance")).to_have_text("1,080")
    expect(bob.get_by_test_id("stake-mine")).to_contain_text("You lost 100 coins.")
    expect(bob.get_by_test_id("stake-balance")).to_have_text("900")
    expect(alice.get_by_test_id("stake-result")).to_contain_text("House cut: 20 coins")
    expect(alice.get_by_test_id("nav-balance")).to_have_text("1,080 coins")  # the nav follows
    expect(bob.get_by_test_id("nav-balance")).to_have_text("900 coins")
    shoot(alice, "staked-room-result")

    alice.get_by_test_id("nav-balance").click()
    history = alice.get_by_test_id("wallet-history")
    expect(alice.get_by_test_id("wallet-balance")).to_contain_text("1,080")
    expect(history.locator("tr[data-kind=payout]")).to_contain_text("house cut 20")
    expect(history.locator("tr[data-kind=payout]")).to_contain_text("+180")
    expect(history.locator("tr[data-kind=stake]")).to_contain_text("-100")
    shoot(alice, "wallet")
    bob.goto("/accounts/wallet/")
    expect(bob.get_by_test_id("wallet-balance")).to_contain_text("900")
    expect(bob.get_by_test_id("wallet-history").locator("tr[data-kind=stake]")).to_contain_text(
        "-100"
    )
    server(assert_ledger_ok)  # every coin the two browsers moved is accounted for
