"""Challenges in two real browsers: alice challenges bob from his profile; bob, on another page, sees
the notice live and accepts, and both land in the room; a second challenge, declined on bob's game
page, tells alice live; after bob blocks her, her challenge is refused with a sentence and bob is told
nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, check_accessible
from tests.browser.play import alice_and_bob, live

pytestmark = [pytest.mark.browser]


def fits_a_phone(page: Page) -> bool:
    page.set_viewport_size(PHONE)
    wide = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(DESKTOP)
    return wide <= PHONE["width"]


def send_challenge(alice: Page, ruleset: str = "classic") -> None:
    alice.goto("/u/bob/")
    alice.get_by_test_id("challenge-button").click()
    form = alice.get_by_test_id("challenge-form")
    form.get_by_label("Rule set").select_option(ruleset)
    form.get_by_label("Seconds per action").select_option("30")
    alice.get_by_test_id("challenge-send").click()


def ids(server, *names: str) -> list[int]:
    from accounts.models import User

    return server(lambda: [User.objects.get(username=name).pk for name in names])


def test_a_challenge_accepted_live_one_declined_and_a_block_refusing_one(new_page, server, shoot):
    from accounts.social.blocks import do_block

    alice, bob = alice_and_bob(new_page, server)
    bob.goto("/leaderboard/")  # a page with no socket of its own: the account's socket

    send_challenge(alice)
    expect(alice.get_by_test_id("challenge-status")).to_contain_text("Waiting for bob to answer")
    notice = bob.get_by_test_id("challenge-notice")
    expect(notice).to_contain_text(
        "alice challenges you: Classic, 2 players, 30 s per action, rated"
    )
    check_accessible(bob, "a challenge's notice")
    assert fits_a_phone(bob)
    shoot(bob, "challenge-notice")

    notice.get_by_test_id("challenge-accept").click()
    for page in (bob, alice):  # alice's waiting page follows the answer to the room
        expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
        expect(live(page)).to_have_attribute("data-status", "playing")
    assert alice.url == bob.url

    # On the game page its own socket brings the notice: bob declines there.
    send_challenge(alice, ruleset="duel")
    notice = bob.get_by_test_id("challenge-notice")
    expect(notice).to_contain_text("alice challenges you: Duel")
    check_accessible(bob, "a challenge's notice on the game page")
    notice.get_by_test_id("challenge-decline").click()
    expect(notice).to_contain_text("You declined alice's challenge")
    expect(alice.get_by_test_id("challenge-notice")).to_contain_text("bob declined your challenge")
    check_accessible(alice, "a declined challenge")

    alice_id, bob_id = ids(server, "alice", "bob")
    server(do_block, bob_id, alice_id)
    bob.goto("/leaderboard/")
    send_challenge(alice)
    expect(alice.get_by_test_id("challenge-form")).to_contain_text(
        "bob doesn't take challenges from you"
    )
    check_accessible(alice, "a refused challenge")
    bob.wait_for_timeout(500)  # what a push would have needed to arrive
    expect(bob.get_by_test_id("challenge-notice")).to_have_count(0)
