"""The quick-match waiting screen, through the real views: what a player waiting for an opponent sees,
and that a reload (or a page closed for a moment) keeps the entry while leaving for good withdraws it."""

from __future__ import annotations

import re
import time

import pytest

from accounts.ledger.history import balance_of
from games.core import presence
from games.models import Action, Game
from games.staking import rooms, sweeper
from tests.games.staking import test_stakes_views as staked_pages
from tests.games.webplay import member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db

# The staked pages' players and settings (two accounts two days old, each with a logged-in client).
quiet, ann, bea = staked_pages.quiet, staked_pages.ann, staked_pages.bea
player, text, open_room = staked_pages.player, staked_pages.text, staked_pages.open_room


def press_quick(client, tier="100", ruleset="twodice", key="q1"):
    return client.post("/staked/quick", {"tier": tier, "ruleset": ruleset, "key": key})


def test_the_waiting_screen_shows_tier_prize_time_counts_cancel_and_what_leaving_does(ann, bea):
    r = press_quick(ann[1])
    entry = Game.objects.get()
    assert r["Location"] == f"/staked/quick/{entry.pk}"
    press_quick(bea[1], ruleset="classic", key="b1")  # same stake, other rules: waits beside ann
    page = text(ann[1].get(r["Location"]))
    assert 'data-testid="quick-stake">100 coins<' in page
    assert 'data-testid="quick-prize">180 coins to the winner<' in page
    assert re.search(r'data-testid="quick-waited">\d+:\d\d<', page)
    assert 'data-testid="quick-waiting-count">2<' in page and "(you, 1 for Classic)" in page
    assert 'data-testid="quick-playing-count">0<' in page
    assert "Cancel and get my 100 coins back" in page
    assert "If you leave it, your entry is cancelled within about a minute" in page
    assert "100 coins go back to your wallet" in page
    # Nothing of a friends room: no invitation, no "listed in the lobby".
    assert "Invitation link" not in page and "listed in the" not in page


def test_the_game_page_of_an_entry_sends_its_player_to_the_waiting_screen(ann):
    press_quick(ann[1])
    entry = Game.objects.get()
    r = ann[1].get(f"/games/{entry.pk}/")
    assert r.status_code == 302 and r["Location"] == f"/staked/quick/{entry.pk}"


def test_the_poll_sends_the_page_to_the_game_once_paired(ann, bea):
    press_quick(ann[1])
    entry = Game.objects.get()
    status = f"/staked/quick/{entry.pk}/status"
    assert 'data-testid="quick-waited"' in text(ann[1].get(status, HTTP_HX_REQUEST="true"))
    r = press_quick(bea[1], key="b1")
    assert r["Location"] == f"/games/{entry.pk}/"  # paired at once: straight to the game
    r = ann[1].get(status, HTTP_HX_REQUEST="true")
    assert r.status_code == 204 and r["HX-Redirect"] == f"/games/{entry.pk}/"
    assert ann[1].get(f"/staked/quick/{entry.pk}")["Location"] == f"/games/{entry.pk}/"


def test_cancelling_refunds_and_says_quick_match_not_room(ann):
    press_quick(ann[1])
    entry = Game.objects.get()
    page = text(ann[1].post(f"/staked/{entry.pk}/cancel", {"version": entry.version}, follow=True))
    assert "Quick match cancelled: your 100 coins are back in your wallet." in page
    assert balance_of(ann[0].pk) == 1000
    r = ann[1].get(f"/staked/quick/{entry.pk}/status", HTTP_HX_REQUEST="true")
    assert r.status_code == 286  # htmx stops polling
    assert "This quick-match entry was cancelled: your 100 coins are back" in text(r)
    log = list(Action.objects.filter(game=entry).values_list("text", flat=True))
    assert not any("host closed the room" in line for line in log)
    assert "The quick-match entry was cancelled" in log[-1]


def _absent_for(entry: Game, seconds: float) -> None:
    presence.client().set(sweeper._absent_key(entry.pk), time.time() - seconds)


def test_the_open_screen_keeps_the_entry_and_a_reload_keeps_it_too(ann):
    """Each poll counts as the page being open, for presence's REQUEST_SECONDS: the sweeper that
    withdraws entries nobody waits at leaves it alone however long it has been waiting, and a reload
    (a few seconds without a poll) changes nothing."""
    press_quick(ann[1])
    entry = Game.objects.get()
    presence.client().delete(f"ludopat:game:{entry.pk}:seats")  # the press's own presence gone
    ann[1].get(f"/staked/quick/{entry.pk}")  # the page (re)loaded
    _absent_for(entry, 600)  # even if a sweep had noted it unattended long ago
    assert sweeper.withdraw_unattended() == 0
    ann[1].get(f"/staked/quick/{entry.pk}/status", HTTP_HX_REQUEST="true")
    assert sweeper.withdraw_unattended() == 0
    assert Game.objects.get().status == Game.Status.OPEN and balance_of(ann[0].pk) == 900


def test_leaving_the_screen_for_good_withdraws_and_refunds(ann):
    press_quick(ann[1])
    entry = Game.objects.get()
    presence.client().delete(f"ludopat:game:{entry.pk}:seats")  # the page's polls lapsed
    assert sweeper.withdraw_unattended() == 0  # first seen unattended
    _absent_for(entry, sweeper.UNATTENDED_SECONDS + 1)
    assert sweeper.withdraw_unattended() == 1
    assert balance_of(ann[0].pk) == 1000
    page = text(ann[1].get(f"/staked/quick/{entry.pk}"))
    assert "This quick-match entry was cancelled: your 100 coins are back" in page
    assert "Cancel and get my" not in page


def test_someone_elses_entry_is_not_shown(ann, bea):
    press_quick(ann[1])
    entry = Game.objects.get()
    r = bea[1].get(f"/staked/quick/{entry.pk}")
    assert r.status_code == 404 and "no quick-match entry of yours" in text(r)
    assert bea[1].get(f"/staked/quick/{entry.pk}/status", HTTP_HX_REQUEST="true").status_code == 404


def test_a_staked_room_is_no_quick_entry(ann):
    game = rooms.do_create_staked_room(member(ann[0]), "twodice", 100)
    assert ann[1].get(f"/staked/quick/{game.pk}").status_code == 404
