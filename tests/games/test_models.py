"""The game room, its seats and its append-only log."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from games.models import Action, Game, Seat
from tests.games.webplay import anon, computer_game, local_game

pytestmark = pytest.mark.django_db


def test_room_ids_are_unguessable_and_distinct():
    ids = {computer_game().pk for _ in range(5)}
    assert len(ids) == 5
    assert all(len(i) >= 16 for i in ids)


def test_every_change_is_one_action_numbered_by_version():
    game = local_game()
    seqs = list(Action.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    with pytest.raises(IntegrityError):
        Action.objects.create(game=game, round=1, seq=1, kind="roll")


def test_seat_names_and_kinds():
    game = computer_game(anon(), levels=("strong", "random"))
    you, green, yellow = game.seats.all()
    assert you.display_name == "You" and not you.is_bot
    assert green.display_name == "Green computer" and green.is_bot and green.level == "strong"
    assert str(yellow) == "Yellow computer (yellow)"
    seat = Seat(kind=Seat.Kind.OPEN, colours=["blue"])
    assert seat.display_name == "Open seat"


def test_timer_fields_are_ready_for_the_next_piece_of_work():
    game = computer_game()
    assert (game.timer_seconds, game.deadline, game.pauses_per_player, game.pause_seconds) == (
        0,
        None,
        2,
        60,
    )
    seat = game.seats.first()
    assert (seat.timeouts_in_row, seat.is_away, seat.last_seen) == (0, False, None)
    assert game.get_absolute_url() == f"/games/{game.pk}/"
    assert Game.objects.get(pk=game.pk).ruleset_name == "Classic"
