"""Reads (selectors): what pages and sockets show, and actions check, without writing anything.

A game with its seats (kept per version for the renders of a push, games.core.caches.ROWS), the games a
person can continue, a game's chat and the messages a viewer reported, its pauses. The writes are the
`do_*` functions of games.actions, which read through these too where they need the same.
"""

from __future__ import annotations

from django.db.models import Prefetch, Q

from accounts.social.reads import blocked_by
from ludopat.compiled_reads import CompiledRead

from ..models import ChatMessage, Game, Pause, Seat
from . import caches
from .actors import Actor


def unfinished_games(actor: Actor, limit: int = 12) -> list[Game]:
    """The actor's games that can be continued: owned local games and seats in friends rooms, each with
    its seats (and their accounts) fetched in one more query, whatever the number of games."""
    live = [Game.Status.OPEN, Game.Status.PLAYING]
    owned = Q(owner_key=actor.key) if actor.key else Q(pk__in=[])
    mine = Seat.objects.filter(kind=Seat.Kind.HUMAN, resigned=False)
    if actor.user_id is not None:
        owned |= Q(owner_id=actor.user_id)
        mine = mine.filter(user_id=actor.user_id)
    else:
        mine = mine.filter(player_key=actor.key, user__isnull=True)
    # The seats are a subquery on indexed columns (no join and DISTINCT over every seat of every game).
    seated = Q(pk__in=mine.values("game_id")) if (actor.user_id or actor.key) else Q(pk__in=[])
    found = Game.objects.filter(status__in=live).filter(owned | seated)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    return list(found.order_by("-updated").prefetch_related(seats)[:limit])


# (compiled once per process and database: ludopat.compiled_reads)
SEATS_GAME_USERS = CompiledRead(
    "seats, their game and accounts",
    Seat,
    lambda game_id: (
        Seat.objects.filter(game_id=game_id).select_related("game", "user").order_by("index")
    ),
)


def game_and_seats(game_id: str) -> tuple[Game | None, list[Seat]]:
    """A game and its seats (with their accounts) in seat order, in one query: every board render and
    every asker check reads both, and a query costs more in Django than the few repeated columns do.
    A game is created with its seats; one without any is read on its own."""
    seats = SEATS_GAME_USERS(game_id)
    if not seats:
        return Game.objects.filter(pk=game_id).first(), []
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one Game object for all of them, as `game.seats` would give
    # What the renders of this version read, until a newer read of it replaces it (what changes without
    # a new version, a deadline or a seat's presence, is read anew by the push that tells of it).
    caches.keep_rows((game_id, game.version), caches.Rows.of(game, seats))
    return game, seats


def game_and_seats_at(game_id: str, version: int) -> tuple[Game | None, list[Seat]]:
    """`game_and_seats` for rendering version `version`: read once per process for the renders of that
    version (the POST's answer and the other seats' and spectators' sockets, all within milliseconds
    of the commit), each getting objects of its own (games.core.caches.ROWS). A newer version, if that is
    what is read, is returned as it is, and shared by its own renders."""
    found = caches.ROWS.get((game_id, version))
    if found is not None:
        return found.build()
    return game_and_seats(game_id)


def game_and_seats_named(game_id: str, version: int | None) -> tuple[Game | None, list[Seat]]:
    """The game and its seats for the checks an action makes before its lock (who is asking, who is
    present), the action naming `version`: as this process kept them if that is the newest version it
    kept of the game (it made that version, or rendered it), else read. The process may not know of a
    version another made since; the checks under the lock see it (a stale version, a seat given up)."""
    found = caches.newest_rows(game_id, version) if version is not None else None
    if found is not None:
        return found.build()
    return game_and_seats(game_id)


# --- chat --------------------------------------------------------------------------------------------


def chat_messages(game: Game, limit: int = 200, viewer_id: int | None = None) -> list[ChatMessage]:
    """The game's chat, oldest first (the newest `limit`), without the messages a moderator hid, nor,
    for `viewer_id`, those of the accounts they blocked."""
    shown = ChatMessage.objects.filter(game=game, hidden_at__isnull=True)
    if viewer_id is not None:
        shown = shown.exclude(user_id__in=blocked_by(viewer_id))
    rows = shown.order_by("-created", "-pk")[:limit]
    return list(reversed(rows))


def reported_by(game: Game, actor: Actor) -> set[int]:
    """Ids of the game's messages `actor` has reported."""
    if actor.user_id is None:
        return set()
    # Through the reports' relation: the report model is moderation's, above this module.
    reported = ChatMessage.objects.filter(game=game, reports__reporter_id=actor.user_id)
    return set(reported.values_list("pk", flat=True))


# --- pauses ------------------------------------------------------------------------------------------


def pauses_used(game: Game, seat: Seat) -> int:
    """Pauses `seat` has taken this round."""
    return Pause.objects.filter(game=game, round=game.round, seat=seat).count()


def pauses_left(game: Game, seat: Seat) -> int:
    return max(0, game.pauses_per_player - pauses_used(game, seat))


def current_pause(game: Game) -> Pause | None:
    """The running pause, with who took it (None unless the game is paused)."""
    if not game.is_paused:
        return None
    return (
        Pause.objects.filter(game=game, ended__isnull=True)
        .select_related("seat__user")
        .order_by("-started")
        .first()
    )
