"""Absent players: play waits for them, then their seat can go to the computer
(games/actions/absence.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.core import presence
from games.core.errors import Conflict, NotAllowed
from tests.games.webplay import (
    SEED,
    anon,
    fresh,
    friends_room,
    snapshot,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


# --- presence and absent players -------------------------------------------------------------------


def test_play_waits_for_an_absent_player_then_the_seat_can_go_to_the_computer(
    host, guest, monkeypatch
):
    game = friends_room(host, [guest])
    # Half a minute after joining (which counts as being here), the guest has not opened the page.
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    before = snapshot(game)
    with pytest.raises(Conflict, match="Waiting for guesto"):
        actions.do_roll(game.pk, host, game.version)
    assert snapshot(game) == before
    guest_seat = game.seats.get(index=1)
    guest_seat.last_seen = timezone.now() - timedelta(seconds=30)
    guest_seat.save()
    with pytest.raises(Conflict, match="two minutes"):
        actions.do_replace_absent(game.pk, host, 1)
    guest_seat.last_seen = timezone.now() - timedelta(seconds=121)
    guest_seat.save()
    with pytest.raises(NotAllowed):
        actions.do_replace_absent(game.pk, anon("watcher"), 1)
    actions.do_replace_absent(game.pk, host, 1)
    assert fresh(game).seats.get(index=1).bot_controlled
    actions.do_roll(game.pk, host, fresh(game).version)  # nobody to wait for now
    assert actions.seat_connected(game.pk, guest_seat.pk)  # the player comes back
    assert not fresh(game).seats.get(index=1).bot_controlled
