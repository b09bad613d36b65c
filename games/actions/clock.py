"""The clock: the choices a room's timer offers, the deadlines of timed rooms, the computer's backup
deadline, and queueing the tasks that act at them.

A game row has `deadline` (when the system acts next) and `turn_deadline` (when the acting seat's own
time runs out). An action sets them inside its transaction (`arm_timer`; `save_game` gives a computer's
turn its backup deadline and stops the clock of a game no longer in play), and the tasks are queued on
commit; games.actions.timers acts on them (`do_deadline`, and the sweeper behind every lost task).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import engine
from ..core import presence
from ..core.task_queue import send_task
from ..models import Game, Pause, Seat
from .state import engine_state, seats_in, turn_seat

# Timed rooms: seconds per action (0 = off). Tests (LUDOPAT_TEST_SEEDS on) may also use short ones.
TIMER_CHOICES = (0, 10, 15, 30)
TEST_TIMER_CHOICES = (2, 3, 4, 5)
PAUSE_COUNT_CHOICES = (0, 1, 2, 3)
PAUSE_SECONDS_CHOICES = (30, 60, 120)
TEST_PAUSE_SECONDS_CHOICES = (2, 3, 5)
AWAY_AFTER_TIMEOUTS = 3  # timeouts in a row that mark a seat away


def timer_choices() -> tuple[int, ...]:
    if settings.LUDOPAT_TEST_SEEDS:
        return tuple(sorted(set(TIMER_CHOICES + TEST_TIMER_CHOICES)))
    return TIMER_CHOICES


def pause_seconds_choices() -> tuple[int, ...]:
    if settings.LUDOPAT_TEST_SEEDS:
        return tuple(sorted(set(PAUSE_SECONDS_CHOICES + TEST_PAUSE_SECONDS_CHOICES)))
    return PAUSE_SECONDS_CHOICES


def disconnect_grace() -> float:
    """Seconds a seated player may be without a connection before the bot plays their due action: the
    time a closed page still counts as present (one definition, games.core.presence)."""
    return presence.closed_grace()


def away_delay() -> float:
    """Seconds the bot waits before playing an away (or long-disconnected) player's action."""
    return float(getattr(settings, "LUDOPAT_AWAY_DELAY", 2.0))


# --- the clock of timed rooms ------------------------------------------------------------------------


def is_timed(game: Game) -> bool:
    return game.mode == Game.Mode.FRIENDS and game.timer_seconds > 0


def stop_clock(game: Game) -> None:
    """No timer runs (the game is over or untimed); a running pause ends with it."""
    if game.paused_remaining_ms is not None:
        Pause.objects.filter(game=game, ended__isnull=True).update(ended=timezone.now())
    game.deadline = game.turn_deadline = game.paused_remaining_ms = None


def act_at(game: Game, seat: Seat, now: datetime, connected: set[int] | None = None) -> datetime:
    """When the bot plays the acting `seat`'s action: at its own deadline, or earlier if the seat is
    away (after a short delay) or its player has had no connection for the grace period."""
    turn = game.turn_deadline or now + timedelta(seconds=game.timer_seconds)
    soon = now + timedelta(seconds=away_delay())
    if seat.is_away:
        return min(turn, soon)
    if connected is None:
        connected = presence.connected_seats(game.pk)
    if seat.pk not in connected:
        since = seat.last_seen or game.started or now
        return min(turn, max(since + timedelta(seconds=disconnect_grace()), soon))
    return turn


def arm_timer(
    game: Game, seats: list[Seat], state: engine.State, remaining: float | None = None
) -> None:
    """Set the next action's deadline (inside the action's transaction); `save_game`, which follows,
    schedules its task on commit.

    `remaining` (seconds) restarts a clock a pause stopped; otherwise the action gets a full timer.
    A computer's turn gets its backup deadline in `save_game` instead.
    """
    game.deadline = game.turn_deadline = None
    if not is_timed(game) or game.status != Game.Status.PLAYING or game.is_paused:
        return
    seat = turn_seat(game, seats, state)
    if seat is None or seat.is_bot:
        return
    now = timezone.now()
    seconds = game.timer_seconds if remaining is None else remaining
    game.turn_deadline = now + timedelta(seconds=seconds)
    game.deadline = act_at(game, seat, now)


def schedule_deadline_on_commit(game: Game) -> None:
    """Queue the task of the game's deadline (if it has one) for when this transaction commits."""
    game_id, version, deadline = game.pk, game.version, game.deadline
    if deadline is None:
        return
    transaction.on_commit(lambda: schedule_deadline(game_id, version, deadline))


def schedule_deadline(game_id: str, version: int, deadline: datetime) -> None:
    """The task that acts at `deadline` if the game is still at `version` (the sweeper backs it up)."""
    send_task("games.tasks.game_deadline", (game_id, version), eta=deadline)


# --- the computer's turns ----------------------------------------------------------------------------

# The sweeper plays a computer's turn whose task never ran (or failed) this much after its delay.
BOT_BACKUP_SECONDS = 5.0


def bot_delay() -> float:
    """Seconds before a computer acts, so people can follow its moves."""
    return float(getattr(settings, "LUDOPAT_BOT_DELAY", 0.9))


def back_computer_turn(game: Game, seats: list[Seat] | None, state: engine.State | None) -> bool:
    """If a computer is to act next, give the game a backup deadline (its delay + 5 s): the sweeper
    plays the turn if its task is lost (broker down, worker killed) or the bot fails. True if so."""
    if game.status != Game.Status.PLAYING or game.is_paused:
        return False
    if state is None:
        state = engine_state(game)
    seat = turn_seat(game, seats if seats is not None else seats_in(game), state)
    if seat is None or not seat.is_bot:
        return False
    backup = timezone.now() + timedelta(seconds=bot_delay() + BOT_BACKUP_SECONDS)
    if game.deadline is None or game.deadline > backup:
        game.deadline = backup
    game.turn_deadline = None
    return True


def schedule_bot(game_id: str, version: int) -> None:
    """A computer acts in this version: run its turn after a short, visible delay."""
    send_task("games.tasks.bot_turn", (game_id, version), countdown=bot_delay())
