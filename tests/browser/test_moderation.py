"""A moderator works the reports queue in the admin: opens a chat report, reads the conversation around
it, mutes the sender for a day with a reason; the sender's next chat message is refused with it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessible
from tests.browser.play import PASSWORD, give_code, log_in, make_user
from tests.factories import with_authenticator

pytestmark = pytest.mark.browser


def make_moderator(username: str):
    from django.contrib.auth.models import Group

    from accounts.moderation.roles import MODERATOR, ensure_roles

    ensure_roles()
    user = make_user(username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATOR))
    with_authenticator(user)  # staff work with a second factor: log_in(..., with_code=True)


def paused_room_with_an_insult() -> str:
    """Alice hosts a timed room, Bob plays; Alice pauses, Bob insults her, Alice reports it."""
    from accounts.models import User
    from accounts.moderation import reports
    from games import actions
    from games.actions import SeatSpec, TimerSpec, chat, pauses
    from games.models import Seat
    from tests.games.webplay import everyone_here, member

    alice, bob = (
        member(User.objects.get(username="alice")),
        member(User.objects.get(username="bob")),
    )
    seats = [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)]
    game = actions.create_game(alice, "friends", "twodice", {}, seats, TimerSpec(30, 2, 120))
    actions.do_join(game.pk, bob)
    everyone_here(game)
    actions.do_start(game.pk, alice)
    pauses.do_pause(game.pk, alice)
    chat.do_chat(game.pk, alice, "good luck!")
    insult = chat.do_chat(game.pk, bob, "you play like a potato, idiot")
    chat.do_chat(game.pk, alice, "please be nice")
    reports.do_report_message(game.pk, alice, message_id=insult.pk, reason="insult")
    return game.pk


def bob_in_a_reported_room(new_page, server):
    """alice, bob and a moderator "mod"; the room of paused_room_with_an_insult, with Bob's page open
    on it and live: Bob's page."""
    for name in ("alice", "bob"):
        server(make_user, name)
    server(make_moderator, "mod")
    game = server(paused_room_with_an_insult)
    bob = new_page()
    log_in(bob, "bob")
    bob.goto(f"/games/{game}/")
    expect(bob.get_by_test_id("connection")).to_have_text("Live")
    return bob


def test_a_moderator_mutes_a_reported_sender_who_is_then_refused_with_the_reason(
    new_page, server, shoot
):
    bob = bob_in_a_reported_room(new_page, server)
    expect(bob.get_by_test_id("chat-form")).to_be_visible()

    mod = new_page()
    mod.goto("/admin/login/")  # the site's log-in, then its code step
    mod.get_by_label("Username").fill("mod")
    mod.get_by_label("Password").fill(PASSWORD)
    mod.get_by_role("button", name="Log in").click()
    give_code(mod)
    mod.get_by_role("link", name="Reports").click()
    mod.get_by_role("link", name=re.compile(r"20\d\d")).first.click()  # the open report's row

    conversation = mod.get_by_test_id("conversation")
    expect(conversation).to_contain_text("good luck!")
    expect(conversation).to_contain_text("you play like a potato, idiot")
    expect(conversation).to_contain_text("please be nice")
    expect(mod.locator(".field-players")).to_contain_text("alice, bob")
    check_accessible(mod)  # reached by clicks: checked here, not by a goto
    shoot(mod, "moderation-report")
    mod.get_by_label("Resolution").select_option("muted")
    mod.get_by_label("For").select_option("24")
    mod.get_by_label("Reason").fill("Insults in chat")
    mod.get_by_role("button", name="Save", exact=True).click()
    expect(mod.locator(".messagelist")).to_contain_text("changed successfully")

    bob.get_by_test_id("chat-input").fill("sorry, potato")
    bob.get_by_test_id("chat-send").click()
    expect(bob.get_by_test_id("toast")).to_have_text(
        re.compile(r"^Muted until \d\d \w\w\w \d{4} \d\d:\d\d UTC: Insults in chat$")
    )
    expect(bob.get_by_test_id("chat-log")).not_to_contain_text("sorry, potato")
    shoot(bob, "moderation-muted")
