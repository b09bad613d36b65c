"""What every action shares: fair-dice seeds and the locked write sequence (lock, check, record, save,
and tell the viewers on commit). The engine state it starts from is games.actions.state's; the clock,
the deadlines and the computer's backup deadline that `save_game` sets are games.actions.clock's.

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

import re
from collections.abc import Iterable
from datetime import datetime
from functools import partial

from django.conf import settings
from django.db import transaction

from ludopat import metrics
from ludopat.compiled_reads import CompiledRead, read_both
from ludopat.compiled_writes import CompiledInsert, CompiledSave

from .. import engine
from ..core import broadcast, caches
from ..core.errors import Conflict, GameNotFound, StaleVersion
from ..engine import fair
from ..models import Action, Game, Seat
from .clock import back_computer_turn, schedule_bot, schedule_deadline_on_commit, stop_clock
from .state import SEATS_USERS, remember

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


NO_GAME = "There is no game at this address. Check the link you were given."


def lock_game(game_id: str) -> Game:
    """The game's row, locked until the transaction ends: one writer per game at a time."""
    if not isinstance(game_id, str) or not game_id:
        raise GameNotFound(NO_GAME)
    found = GAME_LOCKED(game_id, write=True)
    if not found:
        raise GameNotFound(NO_GAME)
    return found[0]


def lock_game_with_seats(game_id: str) -> tuple[Game, list[Seat]]:
    """`lock_game`, then the game's seats with their accounts as they are once it is locked (a ban or
    a seat given up while the lock was waited for included), in one round trip where the database
    allows (ludopat.compiled_reads.read_both): a turn's opening read."""
    if not isinstance(game_id, str) or not game_id:
        raise GameNotFound(NO_GAME)
    found, seats = read_both(GAME_LOCKED, SEATS_USERS, game_id)
    if not found:
        raise GameNotFound(NO_GAME)
    game = found[0]
    for seat in seats:
        seat.game = game  # as `seats_in` gives them
    return game, seats


# (compiled once per process and database: ludopat.compiled_reads)
GAME_LOCKED = CompiledRead(
    "the game, locked", Game, lambda game_id: Game.objects.select_for_update().filter(pk=game_id)
)


def lock_games(game_ids: Iterable[str]) -> list[Game]:
    """Several games' rows, locked in ascending id order (see the lock order above); games that no
    longer exist are left out."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    return list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


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
    transaction.on_commit(partial(metrics.action_committed, kind))  # counted once it is done
    return NEW_ACTION(
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


# A row of the action log, its INSERT compiled once per process and database (ludopat.compiled_writes).
NEW_ACTION = CompiledInsert(Action)


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
    SAVE_GAME(game)
    _after_commit(game, bot_to_act=bot_to_act)
    if not bot_to_act:  # the computer's own task comes on commit; the sweeper is its backup
        schedule_deadline_on_commit(game)  # a running clock's task, for the new version


# Every column of the row, its UPDATE compiled once per process and database (ludopat.compiled_writes).
SAVE_GAME = CompiledSave(Game)


def keep_rows_on_commit(game: Game, seats: list[Seat]) -> None:
    """The game and all its seats as this action writes them are what the renders of the new version
    read: kept when it commits (games.core.caches.ROWS), so neither the POST's answer nor this process's
    sockets read them again. Called before `save_game`, so that they are kept before the push that
    tells the sockets (callbacks run in order), and taken at the commit, once everything is saved.
    Only for an action that writes every change through these objects (a queryset's update would not
    be in them): the turns' (`turns._apply`)."""
    key = (game.pk, game.version)

    def kept() -> None:
        caches.put_rows(key, caches.Rows.of(game, seats))
        caches.committed_here(key, game, seats)  # the push's renders in this thread read them

    transaction.on_commit(kept)


def keep_step_on_commit(action: Action) -> None:
    """A roll or a move as the board's history reads it, kept when it commits (games.core.caches.STEPS):
    the renders of its version in this process take the history one step on without reading it."""
    data = action.data or {}
    step = caches.Step(
        round=action.round,
        kind=action.kind,
        token=tuple(data["move"]["token"]) if action.kind == Action.Kind.MOVE else None,
        roll=tuple(data["roll"]) if action.kind == Action.Kind.ROLL else None,
        text=action.text,
    )
    key = (action.game_id, action.seq)
    transaction.on_commit(lambda: caches.STEPS.put(key, step))


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
