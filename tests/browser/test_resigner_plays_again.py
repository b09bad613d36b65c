"""A player who resigned a round and plays again has their seat back from the computer at once, on the
page they kept open."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Action
from tests.browser.play import (
    act,
    assert_not_reloaded,
    game_id,
    live,
    mark_no_reload,
    open_duel_room,
    start_room,
    version,
)

pytestmark = pytest.mark.browser


def test_a_resigner_who_plays_again_rolls_for_themselves(new_page, server):
    alice, bob = open_duel_room(new_page, server)
    start_room(alice, bob)
    mark_no_reload(alice, bob)
    alice.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    alice.get_by_test_id("resign").click()
    for page in (alice, bob):
        expect(live(page)).to_have_attribute("data-status", "finished")

    bob.get_by_test_id("new-round").click()  # "Play again"
    expect(alice.get_by_test_id("new-round")).to_have_text("Agree to a new round")
    alice.get_by_test_id("new-round").click()
    for page in (alice, bob):
        expect(live(page)).to_have_attribute("data-round", "2")
        expect(live(page)).to_have_attribute("data-status", "playing")
    # Red (Alice's seat) starts every duel round: it is her turn, and the computer, whose delay is
    # 0.05 s on the test stack, must leave it to her.
    expect(live(alice)).to_have_attribute("data-my-turn", "1")
    started = version(alice)
    alice.wait_for_timeout(1500)
    assert version(alice) == started and version(bob) == started, "the computer acted for Alice"

    act(alice, alice.get_by_test_id("roll"))
    rolls = server(
        lambda: list(
            Action.objects.filter(game_id=game_id(alice), round=2, kind=Action.Kind.ROLL)
            .order_by("seq")
            .values_list("auto", flat=True)
        )
    )
    assert rolls[:1] == [""], "the first roll of the round was not Alice's own"
    assert_not_reloaded(alice, bob)
