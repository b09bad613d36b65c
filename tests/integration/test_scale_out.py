"""Several processes behave as one site: two daphne processes and two Celery workers (one task at a time
each) on one database and one Redis, with the players' WebSockets on different processes.

Nothing of a game lives in a process's memory (docs/architecture.md "A move's path"), so a move made via
one process reaches the page held by the other, a timed-out turn is played once whichever worker (or the
beat sweeper) gets there, a chat line said on one process is read on the other, and a staked game pays
out once even when both players end it at the same moment from different processes.

The processes run tests/integration/settings.py on the test database (PostgreSQL in CI); they start once
for this module and test_moderation_bites.py (`two_sites` in conftest.py), whose tests run last in the
package. The package's own worker is stopped meanwhile, so the two workers here are the only ones; the
package's beat is the one beat.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async as in_db
from django.contrib.auth import get_user_model

from games import actions
from games.models import Action, ChatMessage, Game
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from tests import factories
from tests.games.webplay import fresh, member
from tests.integration.browsers import (
    Page,
    is_board,
    message_line,
    next_action,
    session_for,
    version_of,
)
from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMER = 3  # seconds per action (a test-only choice)


def two_people(prefix: str):
    users = get_user_model().objects
    alice, bob = users.create_user(f"{prefix}alice"), users.create_user(f"{prefix}bob")
    return alice, bob


def timed_room(alice, bob) -> Game:
    """Alice's timed room, Bob joined, not started."""
    return factories.timed_room(member(alice), member(bob), TIMER, 1, 5, start=False)


def timeouts(game_id: str, **filters) -> int:
    return Action.objects.filter(game_id=game_id, auto="timeout", **filters).count()


async def test_two_processes_play_one_timed_game_as_one_site(sites):
    alice, bob = await in_db(two_people)("")
    game = await in_db(timed_room)(alice, bob)
    sessions = [await in_db(session_for)(u) for u in (alice, bob)]
    # Alice's page is served by the first daphne, Bob's by the second.
    pages = [
        await Page.open(name, port, game.pk, key)
        for name, port, key in zip(("alice", "bob"), sites.ports, sessions, strict=True)
    ]
    try:
        await in_db(actions.do_start)(game.pk, member(alice))
        start = (await in_db(fresh)(game)).version
        for page in pages:
            await page.board_at(start)

        # Each sees the other's moves: every action, sent on the actor's own process, reaches both.
        acted_by = set()
        for _ in range(8):
            seat, name, values = await in_db(next_action)(game.pk)
            acted_by.add(seat)
            await pages[seat].send(name, **values)
            boards = [await page.board_at(values["version"] + 1) for page in pages]
            if version_of(boards[0]) == version_of(boards[1]):
                assert message_line(boards[0]) == message_line(boards[1])
        assert acted_by == {0, 1}, "both players acted"

        # A timeout fires exactly once: nobody acts; one of the two workers (or the sweeper) plays
        # the seat's turn when its deadline passes, and both pages show it.
        waiting = await in_db(fresh)(game)
        deadline, version = waiting.deadline, waiting.version
        played = await in_db(wait_for)(
            lambda: Action.objects.filter(
                game_id=game.pk, deadline=deadline, auto="timeout"
            ).first(),
            TIMER + 6,
        )
        assert played.seq == version + 1
        for page in pages:
            await page.board_at(played.seq)
        await asyncio.sleep(2.5)  # a second delivery, or the next sweep, would have played by now
        assert await in_db(timeouts)(game.pk, deadline=deadline) == 1

        # Chat opens during a pause; a line said on one process is read on the other, both ways.
        current = await in_db(fresh)(game)
        mark = [len(p.frames) for p in pages]
        await pages[1].send("pause")
        for page, since in zip(pages, mark, strict=True):
            await page.wait_for(lambda f: is_board(f) and 'data-paused="1"' in f[:1500], 5, since)
        assert (await in_db(fresh)(game)).is_paused
        await pages[0].send("chat", text="hello from the first process")
        await pages[1].send("chat", text="and back from the second")
        for page in pages:
            for said in ("hello from the first process", "and back from the second"):
                await page.wait_for(lambda f, said=said: "#chat-log" in f and said in f, 5)
        lines = await in_db(
            lambda: list(ChatMessage.objects.filter(game_id=game.pk).values_list("user_id", "text"))
        )()
        assert sorted(lines) == sorted(
            [(alice.pk, "hello from the first process"), (bob.pk, "and back from the second")]
        )
        assert current.version <= (await in_db(fresh)(game)).version
    finally:
        for page in pages:
            await page.close()


async def test_a_staked_game_ended_from_both_processes_at_once_settles_once(sites):
    from accounts.ledger.history import balance_of
    from accounts.ledger.models import LedgerTransaction
    from tests.ledger_checks import assert_ledger_ok

    alice, bob = await in_db(two_people)("staked-")
    before = [await in_db(balance_of)(u.pk) for u in (alice, bob)]
    game = await in_db(do_create_staked_room)(member(alice), "twodice", 100)
    sessions = [await in_db(session_for)(u) for u in (alice, bob)]
    pages = [
        await Page.open(name, port, game.pk, key)
        for name, port, key in zip(("alice", "bob"), sites.ports, sessions, strict=True)
    ]
    try:
        await in_db(do_join_staked_room)(member(bob), game.pk)
        started = await in_db(fresh)(game)
        assert started.status == Game.Status.PLAYING
        for page in pages:
            await page.board_at(started.version)
        # Both resign at the same moment, each through their own process: one ends the game.
        await asyncio.gather(*(page.send("resign") for page in pages))
        finished = await in_db(wait_for)(
            lambda: fresh(game).status == Game.Status.FINISHED and fresh(game), 10
        )
        for page in pages:
            await page.wait_for(lambda f: is_board(f) and 'data-status="finished"' in f[:600], 10)
        await asyncio.sleep(1.0)  # the other resignation has been refused by now

        @in_db
        def settled():
            payouts = LedgerTransaction.objects.filter(game_id=game.pk, kind="payout").count()
            refunds = LedgerTransaction.objects.filter(game_id=game.pk, kind="refund").count()
            return payouts, refunds, [balance_of(u.pk) for u in (alice, bob)]

        payouts, refunds, after = await settled()
        assert (payouts, refunds) == (1, 0)
        winner = finished.result_places[0]
        loser = 1 - winner
        assert after[loser] == before[loser] - 100
        assert before[winner] < after[winner] < before[winner] + 100  # the pot less the house's cut
        await in_db(assert_ledger_ok)()
    finally:
        for page in pages:
            await page.close()
