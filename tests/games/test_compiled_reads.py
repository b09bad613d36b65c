"""The game's and seats' reads compiled once per connection (ludopat.compiled_reads) give exactly the
objects the ORM gives: every column of the game, its seats and their accounts, the seats' game and
accounts already there (no query to reach them); a missing game reads as missing; the locking read
still refuses to run outside a transaction; and a second read compiles nothing."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

from games import actions
from games.actions.core import lock_game
from games.actions.state import seats_in
from games.core import selectors
from games.core.errors import GameNotFound
from games.models import Game, Seat
from tests.factories import accounts, member

pytestmark = pytest.mark.django_db(transaction=True)


def columns(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def a_room() -> Game:
    """A started room: an account's seat, a computer's, and a seat left open (no account)."""
    (host,) = accounts("hana")
    specs = [
        actions.SeatSpec(Seat.Kind.HUMAN),
        actions.SeatSpec(Seat.Kind.COMPUTER, level="greedy"),
        actions.SeatSpec(Seat.Kind.OPEN),
    ]
    return actions.create_game(member(host), "friends", "classic", {}, specs)


def test_game_and_seats_compiled_once_read_what_the_orm_reads(django_assert_num_queries):
    game = a_room()
    orm = list(Seat.objects.filter(game=game).select_related("game", "user").order_by("index"))
    with django_assert_num_queries(1):
        read_game, seats = selectors.game_and_seats(game.pk)
        assert [s.user.username if s.user else None for s in seats] == ["hana", None, None]
        assert all(s.game is read_game for s in seats)
    assert columns(read_game) == columns(orm[0].game)
    assert [columns(s) for s in seats] == [columns(s) for s in orm]
    assert columns(seats[0].user) == columns(orm[0].user)
    assert isinstance(read_game.state, dict | type(None)) and read_game.options == game.options


def test_the_seats_under_the_lock_read_what_the_orm_reads(django_assert_num_queries):
    game = a_room()
    orm = list(game.seats.select_related("user").order_by("index"))
    with transaction.atomic():
        locked = lock_game(game.pk)
        with django_assert_num_queries(1):
            seats = seats_in(locked)
            assert all(s.game is locked for s in seats)
            assert seats[0].user.username == "hana"
    assert columns(locked) == columns(Game.objects.get(pk=game.pk))
    assert [columns(s) for s in seats] == [columns(s) for s in orm]


def test_a_missing_game_reads_as_missing():
    assert selectors.game_and_seats("no-such-game") == (None, [])
    with transaction.atomic(), pytest.raises(GameNotFound):
        lock_game("no-such-game")


def test_the_locking_read_refuses_to_run_outside_a_transaction():
    game = a_room()
    with transaction.atomic():
        lock_game(game.pk)  # compiled here, inside one
    with pytest.raises(TransactionManagementError):
        lock_game(game.pk)


def test_a_second_read_compiles_nothing(monkeypatch):
    game = a_room()
    selectors.game_and_seats(game.pk)
    compiled = []
    original = SQLCompiler.as_sql
    monkeypatch.setattr(
        SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(1) or original(self, *a, **k)
    )
    for _ in range(3):
        selectors.game_and_seats(game.pk)
    assert compiled == []
