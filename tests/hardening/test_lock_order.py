"""Who is asking is checked before the game's row lock: a spectator is refused at once even while the
lock is held, so a spectator's flood never queues with the players' moves for it."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.test import Client

from games.actions import lock_game
from tests.games.webplay import friends_room, member

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spectator_is_refused_without_waiting_for_the_game_lock(django_user_model, redis_client):
    alice, bob, eve = (django_user_model.objects.create_user(n) for n in ("alice", "bob", "eve"))
    game = friends_room(member(alice), [member(bob)])
    spectator = Client()
    spectator.force_login(eve)
    spectator.get(f"/games/{game.pk}/")  # the browser's player key is written now, not under test
    holding, release = threading.Event(), threading.Event()

    def a_player_moving():
        try:
            with transaction.atomic():
                lock_game(game.pk)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    mover = threading.Thread(target=a_player_moving)
    mover.start()
    assert holding.wait(10)
    try:
        started = time.monotonic()
        response = spectator.post(
            f"/games/{game.pk}/roll", {"version": game.version}, HTTP_HX_REQUEST="true"
        )
        waited = time.monotonic() - started
    finally:
        release.set()
        mover.join()
    assert response.status_code == 403
    assert "watching" in response.content.decode()
    assert waited < 3  # the lock was held for up to 30 s: the refusal did not wait for it
