"""Races on PostgreSQL, for the tests of locks: players, moderators, timers and sweeps at one moment.

`at_once(calls)`: every call in a thread of its own, released together by a barrier, each with its
own database connection; the results or the exceptions raised (`refused`, `succeeded`,
`only_refusals` sort them).

`interleave(first, then, second)`: a thread opens a transaction and runs `first()` in it (taking its
locks); a second thread starts `second()`; once that one waits on a lock (or has finished), the first
thread runs `then()` in the same transaction and commits. So "the move holds the game's lock when the
ban starts" is `interleave(lambda: lock_game(pk), make_the_move, ban)`, and "the ban commits before the
move gets the lock" is `interleave(ban, nothing, make_the_move)`. Each side's result or the exception
it raised comes back (a deadlock is PostgreSQL killing one side).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection, transaction

from games import actions, engine
from games.models import Game
from ludopat.refusals import Refusal
from tests.games.webplay import everyone_here, fresh, step, turn_seat

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
postgres_only = pytest.mark.skipif(
    not ON_POSTGRES,
    reason="needs PostgreSQL (DATABASE_URL): SQLite serialises all writers, so these races "
    "can't happen there",
)


def at_once(calls: list[Callable[[], object]]) -> list[object]:
    """Run every call in its own thread, released together; each result or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except BaseException as error:  # reported to the test, which asserts on it
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def refused(results) -> list[BaseException]:
    return [r for r in results if isinstance(r, BaseException)]


def succeeded(results) -> list[object]:
    return [r for r in results if not isinstance(r, BaseException)]


def only_refusals(results) -> None:
    """Every failure is a refusal a player reads (the games' or the ledger's: not enough coins), never
    a crash or a deadlock."""
    for error in refused(results):
        assert isinstance(error, Refusal), repr(error)


def nothing() -> None:
    return None


def _someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def _run(call: Callable[[], object], out: list, at: int, held=None, go=None) -> None:
    try:
        with transaction.atomic():
            out[at] = call()
            if held is not None:
                held.set()
                assert go.wait(30), "the other side never started"
                out[at] = go.then()
    except BaseException as error:  # returned to the test, which asserts on it
        out[at] = error
    finally:
        if held is not None:
            held.set()
        connection.close()


class _Go(threading.Event):
    then: Callable[[], object] = staticmethod(nothing)


def interleave(
    first: Callable[[], object], then: Callable[[], object], second: Callable[[], object]
) -> tuple[object, object]:
    """(first's `then` result or error, second's result or error); see the module's docstring."""
    out: list[object] = [None, None]
    held, go = threading.Event(), _Go()
    go.then = then
    one = threading.Thread(target=_run, args=(first, out, 0, held, go))
    one.start()
    assert held.wait(30)
    two = threading.Thread(target=_run, args=(second, out, 1))
    two.start()
    end = time.monotonic() + 20
    while two.is_alive() and not _someone_waits_on_a_lock():
        assert time.monotonic() < end, "the second side neither waited nor finished"
        time.sleep(0.02)
    go.set()
    one.join(60)
    two.join(60)
    assert not one.is_alive() and not two.is_alive(), "a side is still waiting"
    return out[0], out[1]


# --- a round one move from its end ---------------------------------------------------------------------


def winning_move(game: Game):
    state = actions.engine_state(game)
    if state.finished or state.awaiting != engine.MOVE:
        return None
    for move in engine.legal_moves(state):
        if engine.apply_move(state, move)[0].finished:
            return move
    return None


def one_move_from_the_end(game: Game, actor_for_seat) -> tuple[Game, Callable[[], Game], int]:
    """Play on until the player to act has a winning move; (the game, that move for
    `actor_for_seat(seat)` as a call, the seat's index)."""
    for _ in range(6000):
        game = fresh(game)
        assert game.status == Game.Status.PLAYING
        winning = winning_move(game)
        seat = turn_seat(game)
        if winning is not None and not seat.is_bot:
            break
        everyone_here(
            game
        )  # the players' pages stay open (their heartbeat), however long this takes
        step(game, actor_for_seat)
    else:
        pytest.fail("no winning move came up")
    state = actions.engine_state(game)
    die = winning.die if (len(set(state.dice)) > 1 or winning.die == "total") else None
    actor, version = actor_for_seat(seat), game.version

    def move() -> Game:
        return actions.do_move(
            game.pk, actor, version, winning.colour, winning.index, die, winning.pair
        )

    return game, move, seat.index
