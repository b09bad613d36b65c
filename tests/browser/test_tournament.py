"""A 4-player tournament in four real browsers: each account joins from the lobby (the first opens it),
everyone watches the bracket page while the computer plays every seat (nobody opens a match), the
bracket moves live round by round, and the winner is told of the prize and finds it in the wallet."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.tournaments.models import Tournament
from tests.browser.play import log_in
from tests.factories import make_user
from tests.ledger_checks import assert_ledger_ok

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.longest]

NAMES = ("ann", "ben", "cat", "dan")
# ms: two rounds of whole games the computer plays at its pace (about a minute each on a quiet
# machine; far longer on a loaded one)
PLAYED = 420_000


def test_four_players_join_watch_the_bracket_and_the_winner_is_paid(new_page, server, shoot):
    for name in NAMES:
        server(make_user, name)
    pages = [new_page() for _ in NAMES]
    for page, name in zip(pages, NAMES, strict=True):
        log_in(page, name)

    first = pages[0]
    first.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    form = first.get_by_test_id("tournament-open-form")
    form.get_by_label("Size").select_option("4")
    form.get_by_label("Buy-in").select_option("50")
    form.get_by_role("button").click()
    expect(first.get_by_test_id("tournament-status")).to_contain_text("1 of 4 seats taken")
    tournament_id = int(re.search(r"/tournaments/(\d+)/", first.url).group(1))

    for page in pages[1:]:
        page.goto("/tournaments/")
        entry = page.get_by_test_id(f"tournament-{tournament_id}")
        expect(entry).to_contain_text("Pot 200 coins")  # the split, shown before joining
        entry.get_by_test_id(f"join-{tournament_id}").click()
        expect(page.get_by_test_id("tournament-status")).to_be_visible()
    # Full: every open bracket page is told it starts, then shows the first round live.
    for page in pages:
        expect(page.get_by_test_id("tournament-status")).to_contain_text("In play", timeout=30_000)
        expect(page.get_by_test_id("match-1-0")).to_have_attribute("data-status", "playing")
    shoot(first, "tournament-bracket-playing")

    for page in pages:  # pushed, never reloaded: the semi-finals, then the final, decided
        expect(page.get_by_test_id("match-2-0")).to_have_attribute(
            "data-status", "won", timeout=PLAYED
        )
        expect(page.get_by_test_id("tournament-status")).to_contain_text("Finished.")
    champion = server(
        lambda: Tournament.objects.get(pk=tournament_id).entries.get(place=1).user.username
    )
    winner = pages[NAMES.index(champion)]
    # The newest notice comes first, pushed to the bracket page the winner has open.
    notices = winner.get_by_test_id("tournament-notice")
    expect(notices.filter(has_text="finished 1st and won 126 coins")).to_have_count(1)
    winner.goto("/accounts/wallet/")
    expect(winner.get_by_test_id("wallet-balance")).to_contain_text("1,076")  # 1,000 - 50 + 126
    expect(winner.locator("main")).to_contain_text(f"Tournament #{tournament_id} prize")
    server(assert_ledger_ok)
