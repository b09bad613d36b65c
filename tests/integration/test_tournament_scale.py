"""A tournament played to the end by the computer on the production shape: two daphne
processes, two Celery workers and beat on one database and one Redis, with one worker killed mid-way
(the tasks it held are lost; the other worker and beat's sweeper play on). Every match has a winner
(absence never voids a tournament match), the prizes are paid once, and the ledger's invariants hold.

Nobody opens a page: every seat's player is absent, so past the grace the computer holds each seat
and plays at its pace (LUDOPAT_BOT_DELAY, 0.05 s here).

CI plays 4 players (two rounds: a worker killed in the first, the final played by the other), which
keeps the suite's time; `LUDOPAT_TOURNAMENT_SIZE=16` plays the whole 16-player knockout (15 matches of
about 340 actions each: several minutes on a quiet 2-core machine, a quarter of an hour on a loaded one).

Run:  LUDOPAT_TOURNAMENT_SIZE=16 DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> .venv/bin/pytest tests/integration/test_tournament_scale.py -s
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from games.models import Game
from games.tournaments.models import Tournament, TournamentMatch
from games.tournaments.registration import do_register, open_tournament
from tests.games.tournaments.helpers import players
from tests.integration.conftest import (
    TwoSites,
    _free_port,
    beat,
    daphne,
    package_stack_paused,
    start_stack,
    stop_stack,
    wait_for,
    worker,
)
from tests.ledger_checks import assert_ledger_ok, ledger_stays_balanced  # noqa: F401
from tests.stack import quiesce_games, service_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.longest]

PACE = {
    "LUDOPAT_AWAY_DELAY": "0.05",
    "LUDOPAT_DISCONNECT_GRACE": "0.2",
    "LUDOPAT_BOT_DELAY": "0.05",
    "LUDOPAT_TOURNAMENT_START_DELAY": "0.5",
}


@pytest.fixture
def stack(
    request, django_db_setup, django_db_blocker, transactional_db, settings
) -> Iterator[TwoSites]:
    """Two daphne processes, two workers (one task at a time each) and a beat of this test's, at the
    computer's pace (the package's worker and beat are paused meanwhile)."""
    for name, value in PACE.items():
        setattr(settings, name, float(value))
    settings.LUDOPAT_TEST_SEEDS = True
    with package_stack_paused(request):
        env = {**service_env("tests.integration.settings", django_db_blocker), **PACE}
        ports = (_free_port(), _free_port())
        daphnes = [daphne(f"tournament-daphne-{n}", port, env) for n, port in enumerate(ports)]
        workers = [worker(f"tournament-worker-{n}", f"tournament{n}", env) for n in range(2)]
        beats = [beat("tournament-beat", env)]
        try:
            start_stack(dict(zip(ports, daphnes, strict=True)), workers, beats)
            yield TwoSites(ports, daphnes, workers)
        finally:
            stop_stack([*daphnes, *workers, *beats])
            quiesce_games()


def decided() -> int:
    return TournamentMatch.objects.exclude(winner=None).count()


SIZE = int(os.environ.get("LUDOPAT_TOURNAMENT_SIZE", "4"))
# Of a pot of 100 coins a player, less the house's 10%: 70/30, or 40/20/10/10/5/5/5/5 (docs/tournaments.md).
PRIZES = {4: [252, 108], 16: [576, 288, 144, 144, 72, 72, 72, 72]}


def test_a_tournament_played_by_the_computer_pays_its_prizes_once(stack):
    people = players(SIZE)
    before = {actor.user_id: balance_of(actor.user_id) for actor in people}
    tournament = open_tournament(SIZE, 100, 2)
    began = time.monotonic()
    for actor in people:
        do_register(actor, tournament.pk)  # the last seat queues the start for a worker
    wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == "playing", timeout=30)

    # Mid-way through the first round. (The waits are generous for a loaded machine: on a quiet one
    # the whole tournament takes a few minutes.)
    wait_for(lambda: decided() >= max(1, SIZE // 8), timeout=900, interval=0.5)
    stack.workers[0].kill()  # its queued tasks are lost: the other worker and the sweeper play on
    wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == "finished",
        timeout=1500,
        interval=0.5,
    )
    took = time.monotonic() - began
    print(f"\n{SIZE}-player tournament played by the computer: {took:.0f} s")

    matches = list(TournamentMatch.objects.filter(tournament=tournament).select_related("game"))
    assert len(matches) == SIZE - 1 and all(m.winner_id for m in matches)
    assert not any(m.walkover for m in matches)
    assert all(m.game.status == Game.Status.FINISHED and m.game.result_places for m in matches)
    prizes = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.PRIZE)
    assert prizes.count() == 1
    entries = Tournament.objects.get(pk=tournament.pk).entries.all()
    paid = sorted((e.prize for e in entries if e.prize), reverse=True)
    assert paid == PRIZES[SIZE]
    after = {actor.user_id: balance_of(actor.user_id) for actor in people}
    for entry in entries:
        assert after[entry.user_id] - before[entry.user_id] == entry.prize - 100
    assert_ledger_ok()
