"""The game's and seats' reads compiled once per process and database (ludopat.compiled_reads) give
exactly the objects the ORM gives: every column of the game, its seats and their accounts, the seats'
game and accounts already there (no query to reach them); a missing game reads as missing; the
locking read still refuses to run outside a transaction; and a second read compiles nothing, in the
same thread or in another (under ASGI each request's sync code runs in a thread of its own)."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

from games import actions
from games.actions.core import lock_game, lock_game_with_seats
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


def test_a_read_in_a_new_thread_compiles_nothing_and_reads_what_the_orm_reads(monkeypatch):
    """Each POST's sync code runs in a fresh thread with a connection object of its own: the plans
    compiled in another thread serve it (they were compiled again for every request when kept on the
    connection object)."""
    game = a_room()
    selectors.game_and_seats(game.pk)
    with transaction.atomic():
        seats_in(lock_game(game.pk))
    compiled, got = [], []
    original = SQLCompiler.as_sql
    monkeypatch.setattr(
        SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(1) or original(self, *a, **k)
    )

    def request_thread() -> None:
        try:
            got.append(selectors.game_and_seats(game.pk))
            with transaction.atomic():
                got.append((lock_game(game.pk), seats_in(game)))
        finally:
            connection.close()  # the thread's own connection, as a request's is handed back

    thread = threading.Thread(target=request_thread)
    thread.start()
    thread.join()
    assert compiled == []
    (read, seats), (locked, locked_seats) = got
    monkeypatch.undo()
    orm = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
    assert columns(read) == columns(locked) == columns(Game.objects.get(pk=game.pk))
    assert [columns(s) for s in seats] == [columns(s) for s in locked_seats]
    assert [columns(s) for s in seats] == [columns(s) for s in orm]


def test_a_turns_lock_and_seats_are_one_round_trip_and_read_what_the_two_reads_read(
    django_assert_num_queries,
):
    game = a_room()
    with transaction.atomic():
        apart = (lock_game(game.pk), seats_in(lock_game(game.pk)))
    round_trips = 1 if connection.vendor == "postgresql" else 2
    with transaction.atomic(), django_assert_num_queries(round_trips):
        locked, seats = lock_game_with_seats(game.pk)
    assert columns(locked) == columns(apart[0])
    assert [columns(s) for s in seats] == [columns(s) for s in apart[1]]
    assert [(s.game is locked, s.user.username if s.user else None) for s in seats] == [
        (True, "hana"),
        (True, None),
        (True, None),
    ]
    with transaction.atomic(), pytest.raises(GameNotFound):
        lock_game_with_seats("no-such-game")
    with pytest.raises(TransactionManagementError):
        lock_game_with_seats(game.pk)  # a locking read outside a transaction locks nothing


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and READ COMMITTED: PostgreSQL's"
)
def test_the_seats_read_with_the_lock_are_those_committed_while_it_was_waited_for():
    """The seats go in the lock's round trip, yet as a read after the lock: an account changed (here
    renamed; a ban the same) while the turn waited for the game's lock is read as it is now."""
    game = a_room()
    holding, waiting, got = threading.Event(), threading.Event(), []

    def holder() -> None:
        try:
            with transaction.atomic():
                lock_game(game.pk)
                holding.set()
                waiting.wait(5)
                time.sleep(0.3)  # the turn's read is sent and waits for the lock meanwhile
                get_user_model().objects.filter(username="hana").update(username="hana2")
        finally:
            connection.close()

    def turn() -> None:
        try:
            holding.wait(5)
            with transaction.atomic():
                waiting.set()  # the holder commits its change while this waits for the lock
                began = time.monotonic()
                got.append((*lock_game_with_seats(game.pk), time.monotonic() - began))
        finally:
            connection.close()

    threads = [threading.Thread(target=holder), threading.Thread(target=turn)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    ((_locked, seats, waited),) = got
    assert waited > 0.2  # it did wait for the lock
    assert seats[0].user.username == "hana2"
