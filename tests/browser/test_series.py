"""A scheduled series as the lobby shows it: an admin's daily series whose slot is minutes away is
opened by beat (the browser stack's, every 2 s here) while a player in New York has the lobby open on a
phone; after a reload the instance is listed with its start in New York time, a countdown that moves
and how long a 4-player tournament usually takes; axe-checked in both schemes at 390 px."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.tournaments.models import Tournament, TournamentSeries
from tests.browser.conftest import PHONE, check_accessible
from tests.ledger_checks import assert_ledger_ok

pytestmark = [pytest.mark.browser]


def a_series_starting_soon():
    start = (timezone.now() + timedelta(minutes=4)).replace(second=0, microsecond=0)
    TournamentSeries.objects.create(
        name="Coffee cup",
        size=4,
        buy_in=100,
        at_time=start.time(),
        time_zone="UTC",
        open_minutes=10,
    )
    return start


def opened() -> int | None:
    return Tournament.objects.filter(series__name="Coffee cup").values_list("pk", flat=True).first()


def test_series_beat_opens_the_instance_and_the_lobby_counts_down_in_local_time(new_page, server):
    start = server(a_series_starting_soon)
    page = new_page(PHONE, timezone_id="America/New_York", locale="en-US")
    page.goto("/tournaments/")
    expect(page.get_by_test_id("scheduled")).to_contain_text("Coffee cup")
    for _ in range(20):  # beat's next pass opens it (every 2 s in the test's stack)
        instance = server(opened)
        if instance:
            break
        page.wait_for_timeout(500)
    assert instance, "beat did not open the series' instance"
    page.reload()
    item = page.get_by_test_id(f"tournament-{instance}")
    local = start.astimezone(ZoneInfo("America/New_York"))
    expect(item.get_by_test_id("starts-at")).to_contain_text(local.strftime("%I:%M"))
    expect(item.get_by_test_id("starts-at")).not_to_contain_text("UTC")
    countdown = item.get_by_test_id("countdown")
    expect(countdown).to_contain_text(" min ")
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first, timeout=3_000)  # it moves, live
    expect(item.get_by_test_id("usual-duration")).to_contain_text("4-player")
    expect(item.get_by_test_id("seats")).to_have_text("0 of 4 seats taken")
    check_accessible(page, "the lobby with a series' instance, at 390 px")
    server(assert_ledger_ok)  # the instance's pool opened balanced
