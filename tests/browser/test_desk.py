"""The moderator's desk: a moderator sees the open report counted in the nav, opens it from the queue
and mutes its sender for a day with a reason: two clicks and the reason. The sender's next chat line
is refused with that reason. Every desk page passes axe. (The reporter's news on their next page is
the site's messages list: tests/accounts/moderation/test_desk.py.)"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, check_accessible
from tests.browser.play import log_in
from tests.browser.test_moderation import bob_in_a_reported_room


def fits_a_phone(page) -> bool:
    page.set_viewport_size(PHONE)
    wide = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(DESKTOP)
    return wide <= PHONE["width"]


def test_a_moderator_mutes_a_reported_sender_from_the_desk_in_two_clicks(
    new_page, server, shoot_sizes
):
    bob = bob_in_a_reported_room(new_page, server)

    mod = new_page()
    log_in(mod, "mod", with_code=True)
    expect(mod.get_by_test_id("nav-desk")).to_have_accessible_name("Desk 1 open report")
    mod.goto("/desk/")
    queue = mod.get_by_test_id("desk-queue")
    expect(queue).to_contain_text("bob: “you play like a potato, idiot”")
    expect(queue).to_contain_text("Reported by alice")
    shoot_sizes(mod, "desk-queue")
    assert fits_a_phone(mod)

    clicks = 0
    mod.get_by_test_id("desk-entry-link").first.click()
    clicks += 1
    conversation = mod.get_by_test_id("desk-conversation")
    expect(conversation).to_contain_text("good luck!")
    expect(conversation).to_contain_text("please be nice")
    expect(mod.get_by_test_id("desk-reported-message")).to_contain_text("you play like a potato")
    expect(mod.get_by_test_id("desk-now")).to_contain_text("Neither muted nor banned now.")
    expect(mod.get_by_label("Mute for")).to_have_value("24")  # a day unless changed
    check_accessible(mod)  # reached by a click: checked here, not by a goto
    report_url = mod.url
    shoot_sizes(mod, "desk-report")
    assert fits_a_phone(mod)

    mod.get_by_label("Reason").fill("Insults in chat")
    mod.get_by_role("button", name="Mute bob").click()
    clicks += 1
    assert clicks == 2
    expect(mod.get_by_test_id("desk-done")).to_have_text(
        re.compile(r"^bob is muted until \d\d \w\w\w \d{4} \d\d:\d\d UTC\.$")
    )
    expect(mod.get_by_test_id("desk-empty")).to_be_visible()
    expect(mod.get_by_test_id("nav-desk")).to_have_accessible_name("Desk")
    check_accessible(mod)
    # The resolved report: how it ended, and the mute now in bob's history (axe runs on the goto).
    mod.goto(report_url)
    expect(mod.get_by_test_id("desk-status")).to_contain_text("Player muted by mod")
    expect(mod.get_by_test_id("desk-sanctions")).to_contain_text("muted until")
    expect(mod.get_by_test_id("desk-sanctions")).to_contain_text("Insults in chat")

    bob.get_by_test_id("chat-input").fill("sorry, potato")
    bob.get_by_test_id("chat-send").click()
    expect(bob.get_by_test_id("toast")).to_have_text(
        re.compile(r"^Muted until \d\d \w\w\w \d{4} \d\d:\d\d UTC: Insults in chat$")
    )
