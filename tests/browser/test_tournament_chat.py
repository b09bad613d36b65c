"""A tournament's chat in two browsers: a registered player on a phone and a spectator on a desktop
exchange lines on the bracket page, each appearing on the other's page live (over the bracket's
socket, no reload), with the Report button on the other's line; axe-checked in both schemes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from games.tournaments.registration import do_register, open_tournament
from tests.browser.conftest import PHONE, check_accessible
from tests.browser.play import log_in
from tests.factories import make_user, member
from tests.ledger_checks import assert_ledger_ok

pytestmark = [pytest.mark.browser]


def a_registered_player_and_a_fan() -> int:
    player, fan = make_user("player"), make_user("fan")
    # Two days old: past the new-player limits.
    User.objects.filter(pk__in=[player.pk, fan.pk]).update(
        date_joined=timezone.now() - timedelta(days=2)
    )
    tournament = open_tournament(4, 100)
    do_register(member(player), tournament.pk)
    return tournament.pk


def test_tournament_chat_a_player_and_a_spectator_talk_live(new_page, server, shoot):
    tournament_id = server(a_registered_player_and_a_fan)
    player, fan = new_page(PHONE), new_page()
    log_in(player, "player")
    log_in(fan, "fan")
    for page in (player, fan):
        page.goto(f"/tournaments/{tournament_id}/")
        expect(page.get_by_test_id("chat-form")).to_be_visible()

    fan.get_by_test_id("chat-input").fill("Good luck, player!")
    fan.get_by_test_id("chat-send").click()
    line = player.get_by_test_id("chat-message").filter(has_text="Good luck, player!")
    expect(line).to_be_visible()  # pushed: the player's page was not reloaded
    expect(line.get_by_text("Report", exact=True)).to_be_visible()
    expect(fan.get_by_test_id("chat-input")).to_have_value("")  # sent, the form emptied
    check_accessible(player, "a spectator's line arrived, at 390 px")

    player.get_by_test_id("chat-input").fill("Thanks, see you in the final")
    player.get_by_test_id("chat-send").click()
    expect(fan.get_by_test_id("chat-log")).to_contain_text("Thanks, see you in the final")
    expect(fan.get_by_test_id("chat-message")).to_have_count(2)
    check_accessible(fan, "the player's answer arrived")
    shoot(player, "tournament-chat-phone")
    server(assert_ledger_ok)  # the buy-in's pool (and its opening) balanced
