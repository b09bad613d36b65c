"""Celery tasks: load the game by id and call an action; a task that finds a newer version does nothing."""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import shared_task

from accounts.moderation import banned_games
from ludopat import health

from . import actions
from .actions import idle, timers
from .challenges import lapses as challenge_lapses
from .core import broadcast
from .staking import sweeper
from .tables import sweeper as tables_sweeper
from .tournaments import series as tournament_series
from .tournaments import starting as tournament_start
from .tournaments import sweeper as tournament_sweeper

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.bot_turn", ignore_result=True)
def bot_turn(game_id: str, version: int) -> bool:
    """The computer's next action in `game_id`, if the game is still at `version`."""
    return actions.do_bot_turn(game_id, version)


@shared_task(name="games.tasks.game_deadline", ignore_result=True)
def game_deadline(game_id: str, version: int) -> bool:
    """The deadline set at `version` has come: the bot plays for the seat, or the pause ends."""
    return timers.do_deadline(game_id, version=version)


@shared_task(name="games.tasks.presence_lapsed", ignore_result=True)
def presence_lapsed(game_id: str) -> None:
    """A page of the game closed a grace period ago: every viewer's board shows who is here now."""
    broadcast.presence_lapsed(game_id)


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every ~2 s: act on deadlines already past (their task was lost with a worker) and void
    staked games nobody is at (games.actions.timers.sweep), give up any seat a banned account still
    holds (a join racing the ban), withdraw staked rooms whose host has left the page, and pair the
    quick-match entries whose rating ranges have widened to take each other in, and seat the players
    waiting for public tables (ranges widened, holds over, computers due). The
    sweeps of the layers above the games' core are called here, so the core imports none of them.
    Tournaments due are started, and scheduled ones' players told seconds before; challenges nobody
    answered in 2 minutes lapse. The number of
    games where a deadline did something."""
    done = timers.sweep()
    health.swept()  # the heartbeat /health/ready reads: a worker runs what beat queues
    _sweep(banned_games.give_up_banned_seats, "giving up banned accounts' seats")
    _sweep(sweeper.withdraw_unattended, "withdrawing unattended staked rooms")
    _sweep(sweeper.pair_waiting, "pairing waiting quick-match entries")  # after: nobody absent
    _sweep(tables_sweeper.sweep, "seating players waiting for public tables")
    _sweep(tournament_sweeper.start_due, "starting tournaments due")
    _sweep(tournament_sweeper.tell_starting_soon, "telling scheduled tournaments' players")
    _sweep(challenge_lapses.lapse_due, "lapsing challenges nobody answered")
    return done


def _sweep(sweep: Callable[[], object], what: str) -> None:
    try:  # one failing sweep must not stop the others
        sweep()
    except Exception:
        log.exception("%s failed", what)


@shared_task(name="games.tasks.close_idle_games", ignore_result=True)
def close_idle_games() -> int:
    """Beat, hourly: close games nobody has played for long (games.actions.idle)."""
    return idle.close_idle_games()


@shared_task(name="games.tasks.start_tournament", ignore_result=True)
def start_tournament(tournament_id: int) -> bool:
    """A full sit-and-go's countdown is over: it starts (if still full; the sweeper backs this up)."""
    return tournament_start.do_start(tournament_id)


@shared_task(name="games.tasks.open_series", ignore_result=True)
def open_series() -> int:
    """Beat, every minute: open each scheduled series' instances due within their lead time (one per
    slot, however many beats or runs: games.tournaments.series)."""
    return tournament_series.do_open_due()
