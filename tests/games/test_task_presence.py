"""A computer's turn and a deadline, run as Celery tasks, read a game's presence once for the action's
checks and its push, as a player's action does (games.core.presence.read_once)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import presence
from games.models import Game
from games.tasks import bot_turn, game_deadline
from tests.factories import anon, computer_game, member, timed_room
from tests.games.webplay import fresh, me, play_until, turn_seat

# Committed as a worker commits: the push runs when the task's transaction ends, inside the task.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_computers_turn_reads_presence_once(monkeypatch, redis_client):
    actor = anon()
    game = play_until(computer_game(actor), me(actor), lambda g: turn_seat(g).is_bot)
    reads: list[str] = []
    live_members = presence._live_members
    monkeypatch.setattr(presence, "_live_members", lambda g: reads.append(g) or live_members(g))
    assert bot_turn(game.pk, game.version) is True
    assert reads == [game.pk]


def test_a_deadline_the_computer_plays_reads_presence_once(
    monkeypatch, redis_client, django_user_model
):
    host, guest = (member(django_user_model.objects.create_user(n)) for n in ("hana", "gus"))
    game = timed_room(host, guest)
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=past, turn_deadline=past)
    reads: list[str] = []
    live_members = presence._live_members
    monkeypatch.setattr(presence, "_live_members", lambda g: reads.append(g) or live_members(g))
    assert game_deadline(game.pk, game.version) is True  # the computer plays the seat
    assert fresh(game).version > game.version
    assert reads == [game.pk]
