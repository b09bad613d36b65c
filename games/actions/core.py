"""What every action shares: the engine state, seeds, the locked write sequence and the clock.

Every change to a game is a `do_*` function in one of this package's modules; each runs in one transaction holding a row lock on the Game (`select_for_update`; SQLite takes its write
lock when the transaction starts), checks who acts, whose turn it is and the version the player saw,
writes the Action log entry and the new state, bumps `version`, and only after the commit tells the game's
group (WebSocket viewers) and schedules the computer's next turn. Any process may call these: a web view
for a click, the consumer for a `ws-send`, a Celery worker for a bot turn.

Errors are GameError subclasses carrying the HTTP status a view should answer with and a sentence a
player can read; nothing is written when one is raised.

Lock order, everywhere (a transaction that takes locks of more than one kind takes them in this order,
so no two ever wait on each other in a circle):

1. account rows (users), ascending id. Moderation (a ban, a mute, a rename) locks an account with
   `select_for_update(no_key=True)`: FOR NO KEY UPDATE doesn't conflict with the FOR KEY SHARE that
   PostgreSQL's foreign-key check takes on an account when a game's transaction writes a row pointing
   at it (a result, a standing, a pair-day tally, a chat line, a stake request), so a player's move or
   message never waits for a moderator while holding its game. (Changing a key column, such as the
   username, does conflict: do it after the account's games are locked, as `lock_games` is used.)
2. game rows (`lock_game`; several at once: `lock_games`, ascending id).
3. wallet and escrow rows (accounts.ledger.posting.post, ascending id).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import broadcast, caches, engine, presence
from ..engine import fair
from ..errors import Conflict, GameNotFound, StaleVersion
from ..models import Action, Game, Pause, Seat

log = logging.getLogger(__name__)


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
    time a closed page still counts as present (one definition, games.presence)."""
    return presence.closed_grace()


def away_delay() -> float:
    """Seconds the bot waits before playing an away (or long-disconnected) player's action."""
    return float(getattr(settings, "LUDOPAT_AWAY_DELAY", 2.0))


# --- engine state ------------------------------------------------------------------------------------


def players_of(game: Game) -> list[list[str]]:
    return [list(p) for p in game.players]


def engine_state(game: Game) -> engine.State:
    """The current round's engine state, rebuilt from the Action log (kept per version in memory,
    games.caches: once this transaction commits)."""
    key = (game.pk, game.round, game.version)
    cached = caches.STATES.get(key)
    if cached is not None:
        return cached
    state = engine.new_game(game.ruleset, players_of(game), game.options)
    # Up to this version only: a row committed since the game was read belongs to a later one.
    rows = Action.objects.filter(
        game=game,
        round=game.round,
        kind__in=[Action.Kind.ROLL, Action.Kind.MOVE],
        seq__lte=game.version,
    ).order_by("seq")
    for row in rows.values_list("kind", "data"):
        kind, data = row
        if kind == Action.Kind.ROLL:
            state, _ = engine.roll(state, data["roll"])
        else:
            body = data["move"]
            colour, index = body["token"]
            state, _ = engine.move(state, colour, index, body.get("die"), body.get("pair", False))
    remember(game, state)
    return state


def remember(game: Game, state: engine.State) -> None:
    """Keep `state` as the game's at its version, if and when this transaction commits."""
    caches.keep(caches.STATES, (game.pk, game.round, game.version), state)


def seat_of_player(seats: list[Seat], colours: Iterable[str]) -> Seat:
    colours = list(colours)
    for seat in seats:
        if list(seat.colours) == colours:
            return seat
    raise LookupError(f"no seat plays {colours}")


def turn_seat(game: Game, seats: list[Seat], state: engine.State) -> Seat | None:
    if game.status != Game.Status.PLAYING or state.finished:
        return None
    return seat_of_player(seats, state.players[state.turn])


# --- seeds -------------------------------------------------------------------------------------------


def new_server_seed() -> str:
    """A fresh seed; tests (LUDOPAT_TEST_SEEDS on) may fix it with LUDOPAT_FIXED_SERVER_SEED."""
    if settings.LUDOPAT_TEST_SEEDS:
        fixed = getattr(settings, "LUDOPAT_FIXED_SERVER_SEED", "") or ""
        if re.fullmatch(r"[0-9a-f]{64}", fixed):
            return fixed
    return fair.new_server_seed()


def reseed(game: Game) -> None:
    game.server_seed = new_server_seed()
    game.server_seed_sha256 = fair.commitment(game.server_seed)
    game.client_seed = ""
    game.nonce = 0


CLIENT_SEED_RE = re.compile(r"^[A-Za-z0-9 _.,:;!?@#$%^&*()\[\]{}+=~-]{1,64}$")


def client_seed(seats: list[Seat]) -> str:
    return fair.client_seed_for(s.client_seed for s in sorted(seats, key=lambda s: s.index))


# --- writing -----------------------------------------------------------------------------------------


def lock_game(game_id: str) -> Game:
    """The game's row, locked until the transaction ends: one writer per game at a time."""
    if not isinstance(game_id, str) or not game_id:
        raise GameNotFound("There is no game at this address. Check the link you were given.")
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(
            "There is no game at this address. Check the link you were given."
        ) from None


def lock_games(game_ids: Iterable[str]) -> list[Game]:
    """Several games' rows, locked in ascending id order (see the lock order above); games that no
    longer exist are left out."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    return list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def seats_in(game: Game) -> list[Seat]:
    """The game's seats in seat order."""
    return list(game.seats.select_related("user").order_by("index"))


def check_version(game: Game, version: int | None) -> None:
    if version is None:
        return
    if version != game.version:
        raise StaleVersion("The board changed before your action arrived; here is the current one.")


def record_action(
    game: Game,
    kind: str,
    seat: Seat | None = None,
    data: dict | None = None,
    text: str = "",
    auto: str = "",
    deadline: datetime | None = None,
) -> Action:
    """Append to the action log and bump the version: every change a viewer can see does both."""
    game.version += 1
    return Action.objects.create(
        game=game,
        round=game.round,
        seq=game.version,
        seat=seat,
        kind=kind,
        data=data or {},
        text=text[:300],
        auto=auto,
        deadline=deadline,
    )


def check_playing(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise Conflict("The game has not started yet.")
    if game.is_over:
        raise Conflict("This game is over.")


def save_game(
    game: Game, state: engine.State | None = None, seats: list[Seat] | None = None
) -> None:
    """Write the game row, with the copy of the engine state kept for listing and rendering; on commit
    the viewers are told and the next system action (a computer's turn, a deadline) is queued."""
    if state is not None:
        game.state = state.to_json()
        remember(game, state)
    if game.status != Game.Status.PLAYING:
        stop_clock(game)
    bot_to_act = back_computer_turn(game, seats, state)
    game.bot_failures = 0  # a new version: the computer gets fresh tries
    game.save()
    _after_commit(game, bot_to_act=bot_to_act)
    if not bot_to_act:  # the computer's own task comes on commit; the sweeper is its backup
        schedule_deadline_on_commit(game)  # a running clock's task, for the new version


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


def send_task(name: str, args: tuple, **options: Any) -> bool:
    """Queue a Celery task by name (games.tasks imports this package, never the other way round).

    A failure (the broker is down) is logged, not raised: the action is already committed, and every
    state where the system acts next has a deadline that the sweeper acts on.
    """
    from ludopat.celery import app

    try:
        app.send_task(name, args, **options)
        return True
    except Exception:
        log.exception("could not queue %s%s", name, args)
        return False


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


def _after_commit(game: Game, *, bot_to_act: bool) -> None:
    update = broadcast.BoardUpdate.of(game)
    transaction.on_commit(update.send)
    if game.rematch_of_id and (game.status != Game.Status.PLAYING or game.nonce == 0):
        # A rematch offer changed state (opened, joined, withdrawn, over; no dice rolled yet means
        # the join that started it): the page of the game it was offered from shows that.
        old_id = game.rematch_of_id
        transaction.on_commit(lambda: broadcast.board_refreshed(old_id))
    if bot_to_act:
        game_id, version = game.pk, game.version
        transaction.on_commit(lambda: schedule_bot(game_id, version))


def schedule_bot(game_id: str, version: int) -> None:
    """A computer acts in this version: run its turn after a short, visible delay."""
    send_task("games.tasks.bot_turn", (game_id, version), countdown=bot_delay())
