"""A finished tournament as anyone finds it later: the lobby's Finished list names the winner, the
date and the pot, and its page shows the podium with each prize, the final's replay and the final
bracket, readable on a phone and a desktop (the live walk through a tournament, with the podium pushed
as it ends, is test_tournament.py; this one starts from a tournament played out by the services)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_accessible
from tests.games.tournaments.helpers import full_tournament, play_out, players
from tests.ledger_checks import assert_ledger_ok

pytestmark = pytest.mark.browser


def a_tournament_played_out() -> tuple[int, str, str]:
    """Four players at 50 coins, every match decided: (its id, the champion, the runner-up)."""
    people = players(4, "pod")
    tournament = play_out(full_tournament(people, buy_in=50), people)
    first = tournament.entries.get(place=1).user.username
    second = tournament.entries.get(place=2).user.username
    assert_ledger_ok()
    return tournament.pk, first, second


def test_podium_of_a_finished_tournament_on_a_phone_and_a_desktop(new_page, server):
    tournament_id, champion, runner_up = server(a_tournament_played_out)
    for viewport, where in ((PHONE, "on a phone"), (None, "on a desktop")):
        page = new_page(viewport)
        page.goto(f"/tournaments/{tournament_id}/")
        podium = page.get_by_test_id("podium")
        expect(podium).to_contain_text(f"1st {champion} 126 coins")
        expect(podium).to_contain_text(f"2nd {runner_up} 54 coins")
        expect(podium).to_contain_text("3rd-4th")
        expect(page.get_by_test_id("final-replay")).to_be_visible()
        expect(page.get_by_test_id("tournament-status")).to_contain_text("Finished")
        # The podium comes before the bracket, on a phone too.
        above = page.get_by_test_id("podium").bounding_box()["y"]
        assert above < page.get_by_test_id("bracket").bounding_box()["y"]
        check_accessible(page, f"a finished tournament's podium, {where}")


def test_podium_reached_from_the_lobbys_finished_list(new_page, server):
    tournament_id, champion, _ = server(a_tournament_played_out)
    page = new_page(PHONE)
    page.goto("/tournaments/")
    finished = page.get_by_test_id("finished")
    expect(finished).to_contain_text(f"Tournament #{tournament_id}")
    expect(finished).to_contain_text(f"won by {champion}")
    expect(finished).to_contain_text("pot 200 coins")
    check_accessible(page, "the lobby's finished tournaments, on a phone")
    finished.get_by_role("link", name=f"Tournament #{tournament_id}").click()
    expect(page.get_by_test_id("podium")).to_contain_text(f"1st {champion}")
    server(assert_ledger_ok)
