"""Which seats of a game have a player present now: one Redis sorted set per game, any process.

A member is "<seat id>\\n<channel name>" scored by the time it last showed life (connect or heartbeat);
a connection whose process died drops out after STALE_SECONDS, so a crash never leaves a ghost player.

A player who acts by plain POSTs, or fetches the board, has no WebSocket but is plainly there: such a
request counts for REQUEST_SECONDS (member "<seat id>\\nrequest", scored so that it goes stale then).
A player who just took a seat counts the same way, until their page's socket says so itself.

A closed socket is a definite signal: when a seat's last socket closes, the seat counts as present for
only `closed_grace()` seconds more (member "<seat id>\\nclosed"; a reload reconnects within it), and its
request presence is forgotten (the 30 s are for players without a socket). Once that grace is over the
seat is away, for its opponents' boards, for the rooms that wait for absent people and for the timers
alike; a task queued at the close pushes the change to the game's viewers then.

An action reads who is present once (`read_once`, around the action, its push and its answer): the
action's own checks (a friends room waits for absent people, a timer for a disconnected player), the
push's stamp and every render of its version take that one read. That read costs no round trip of its
own: it rides in the rate limit's (`Reading`, ludopat.throttle), or in the write of a seat seen acting,
which reads back who is present after it. A write of the game's presence in the meantime (a socket
closing) forgets it. A seat seen acting whose socket already keeps it present for longer than the
request would is not written at all (`seen_in_request`).

If Redis can't be reached, every seat counts as present: nobody is waited for and no seat is handed to
the computer for being "absent" while the site merely can't see who is here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import redis
from django.conf import settings

from ludopat.redis_clients import redis_client

from .task_queue import send_task

if TYPE_CHECKING:
    from ..models import Game, Seat
    from .actors import Actor

STALE_SECONDS = 75
REQUEST_SECONDS = 30
REQUEST = "request"
CLOSED = "closed"

log = logging.getLogger(__name__)


# A live member of a game's set: (seat id, how it shows life: a channel, REQUEST or CLOSED, its score).
Member = tuple[int, str, float]

# While an action runs (read_once): the presence read of each game so far, by game id.
_read: ContextVar[dict[str, tuple[Member, ...]] | None] = ContextVar("presence_read", default=None)


@contextmanager
def read_once(*made: Reading) -> Iterator[None]:
    """Within: `connected_seats` reads each game's presence at most once (a write forgets it, or
    reads it back). `made`: reads already made elsewhere (a socket's, riding its rate limit), taken
    as the first. Within another `read_once`, the same reads (a view that read presence before the
    action keeps it for the action)."""
    read = _read.get()
    token = None
    if read is None:
        read = {}
        token = _read.set(read)
    for reading in made:
        if reading.members is not None:
            read[reading.game_id] = reading.members
    try:
        yield
    finally:
        if token is not None:
            _read.reset(token)


@dataclass
class Reading:
    """Who is present in a game, read in another's round trip to Redis (ludopat.redis_clients.Rider:
    the action's rate limit, which every action sends first anyway); within `read_once`, kept as the
    action's one read. `members` stays None if Redis could not be reached (a later read tries again)."""

    game_id: str
    members: tuple[Member, ...] | None = None

    def queue(self, pipe: redis.client.Pipeline) -> None:
        pipe.zrangebyscore(_key(self.game_id), _now() - STALE_SECONDS, "+inf", withscores=True)

    def take(self, replies: list[Any] | None) -> None:
        if not replies:
            return
        self.members = _members(replies[0])
        read = _read.get()
        if read is not None:
            read[self.game_id] = self.members


def _forget(game_id: str) -> None:
    read = _read.get()
    if read is not None:
        read.pop(game_id, None)


def _now() -> float:
    return time.time()


def _key(game_id: str) -> str:
    return f"ludopat:game:{game_id}:seats"


def client() -> redis.Redis:
    return redis_client()


def closed_grace() -> float:
    """Seconds a seat still counts as present after its last socket closed (5 by default); the timers
    hand a disconnected player's action to the computer after the same time."""
    return float(getattr(settings, "LUDOPAT_DISCONNECT_GRACE", 5.0))


def touch(game_id: str, seat_ids: Collection[int], channel: str) -> None:
    if seat_ids:
        _add(game_id, {f"{sid}\n{channel}": _now() for sid in seat_ids})


def seen_in_request(game_id: str, seat_ids: Collection[int]) -> None:
    """A request of these seats' player (an action, a board fetch): present for REQUEST_SECONDS."""
    if seat_ids:
        score = _now() - STALE_SECONDS + REQUEST_SECONDS
        if not _kept_longer(game_id, seat_ids, score):
            _add(game_id, {f"{sid}\n{REQUEST}": score for sid in seat_ids})


def _kept_longer(game_id: str, seat_ids: Collection[int], score: float) -> bool:
    """Whether the read this action keeps shows each of the seats with a socket that keeps it present
    at least as long as a member scored `score` would (it showed life since): a request's member then
    changes nothing, since a socket's close forgets it anyway (`drop`). The usual case, a player on
    their page, whose POSTs then write no presence at all."""
    read = _read.get()
    members = read.get(game_id) if read is not None else None
    if members is None:
        return False
    lasting = {sid for sid, via, at in members if via not in (REQUEST, CLOSED) and at >= score}
    return set(seat_ids) <= lasting


def seated(game_id: str, seat_ids: Collection[int]) -> None:
    """A player just took these seats (a join): they are here, though their page's socket joined the
    game as a spectator and says so only once it learns of the seat; never shown away meanwhile."""
    seen_in_request(game_id, seat_ids)


def _add(game_id: str, members: dict[str, float]) -> None:
    read = _read.get()
    now = _now()
    pipe = client().pipeline()
    pipe.zadd(_key(game_id), members)
    pipe.zremrangebyscore(_key(game_id), "-inf", now - STALE_SECONDS)
    pipe.expire(_key(game_id), 24 * 3600)
    if read is not None:  # within an action: who is present after the write, in the same round trip
        pipe.zrangebyscore(_key(game_id), now - STALE_SECONDS, "+inf", withscores=True)
    try:
        replies = pipe.execute()
    except redis.RedisError as error:
        _forget(game_id)
        log.warning("presence unreachable (%s): seats of game %s not recorded", error, game_id)
        return
    if read is not None:
        read[game_id] = _members(replies[-1])


def drop(game_id: str, seat_ids: Collection[int], channel: str) -> set[int]:
    """Forget a WebSocket connection; the seats it was the last connection of (now disconnected: they
    count as present for `closed_grace()` seconds more, then the game's viewers are told)."""
    if not seat_ids:
        return set()
    _forget(game_id)
    try:
        client().zrem(_key(game_id), *[f"{sid}\n{channel}" for sid in seat_ids])
        members = _live_members(game_id)
        sockets = {sid for sid, via, _ in members if via not in (REQUEST, CLOSED)}
        gone = {sid for sid in seat_ids if sid not in sockets}
        if gone:
            _closed(game_id, gone)
    except redis.RedisError as error:
        log.warning(
            "presence unreachable (%s): a connection of game %s not dropped", error, game_id
        )
        return set()
    if gone:
        _tell_when_away(game_id)
    return gone


def _closed(game_id: str, seat_ids: set[int]) -> None:
    """The seats' last socket closed: present for the grace only, whatever requests said before."""
    score = _now() - STALE_SECONDS + closed_grace()
    pipe = client().pipeline()
    pipe.zrem(_key(game_id), *[f"{sid}\n{REQUEST}" for sid in seat_ids])
    pipe.zadd(_key(game_id), {f"{sid}\n{CLOSED}": score for sid in seat_ids})
    pipe.execute()


def _tell_when_away(game_id: str) -> None:
    """Queue the push that shows the seats away once the grace is over (if nobody came back, the
    boards rendered then say so; if someone did, they show them here)."""
    send_task("games.tasks.presence_lapsed", (game_id,), countdown=closed_grace() + 0.5)


def connected_seats(game_id: str) -> set[int]:
    """Seat ids present now (every seat of the game if Redis can't be reached); within `read_once`,
    as first read there."""
    read = _read.get()
    if read is not None and game_id in read:
        return {sid for sid, _, _ in read[game_id]}
    try:
        members = _live_members(game_id)
    except redis.RedisError as error:
        log.warning(
            "presence unreachable (%s): every seat of game %s counts as present", error, game_id
        )
        return every_seat(game_id)
    if read is not None:
        read[game_id] = tuple(members)
    return {sid for sid, _, _ in members}


def every_seat(game_id: str) -> set[int]:
    from ..models import Seat

    return set(Seat.objects.filter(game_id=game_id).values_list("pk", flat=True))


def _live_members(game_id: str) -> list[Member]:
    # cast: redis-py types every reply as "maybe awaitable"; this client is the synchronous one.
    reply = cast(
        "list[tuple[bytes, float]]",
        client().zrangebyscore(_key(game_id), _now() - STALE_SECONDS, "+inf", withscores=True),
    )
    return list(_members(reply))


def _members(reply: list[tuple[bytes, float]]) -> tuple[Member, ...]:
    """A ZRANGEBYSCORE ... WITHSCORES reply of the game's set, as members."""
    found = []
    for member, score in reply:
        sid, _, via = member.decode().partition("\n")
        found.append((int(sid), via, float(score)))
    return tuple(found)


def seen_acting(game: Game | None, seats: Iterable[Seat], actor: Actor) -> None:
    """The actor's request (an action, a board fetch) shows they are at their seats in a friends room
    (the only rooms that wait for absent people). From the seats the request has read; nothing for
    strangers."""
    from ..models import Game, Seat

    if game is None or game.mode != Game.Mode.FRIENDS:
        return
    people = [s for s in seats if s.kind == Seat.Kind.HUMAN]
    if actor.user_id is not None:
        theirs = [s.pk for s in people if s.user_id == actor.user_id]
    elif actor.key:
        theirs = [s.pk for s in people if s.user_id is None and s.player_key == actor.key]
    else:
        return
    seen_in_request(game.pk, theirs)
