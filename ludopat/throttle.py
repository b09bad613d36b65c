"""Refuse floods: fixed-window counters in the site's Redis, one per way of telling people apart.

A limit keyed on the session alone is no limit: a client that drops its cookie gets a new session per
request. So every request is counted three times, against the browser's session, the account (if
logged in) and the client address (LUDOPAT_PROXY_COUNT says how to read it behind a proxy), and refused
when any of them is over. An address may be many people (a school, a café), so it gets
LUDOPAT_ADDRESS_RATE_FACTOR times a person's limit. The doors that stake coins need an account, so
they count the person alone (`allow_door`). The limits are settings (LUDOPAT_RATES).

The counters are the cache's keys in the cache's database (REDIS_URL), written through the site's own
client (ludopat.redis_clients), so that a read the caller makes anyway of the same Redis may ride in
the same round trip (`allow_action`'s `also`: a game action's presence read).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from redis import RedisError

from ludopat import client_address
from ludopat.redis_clients import Rider, redis_client

log = logging.getLogger(__name__)

# (events, seconds) per person; the settings module overrides any of them.
DEFAULT_RATES = {
    "action": (30, 10),  # per game: generous for fast clicking, far below a scripted flood
    "new_game": (20, 600),
    "signup": (5, 3600),
    "password_reset": (5, 3600),
    # The doors that stake coins, counted per person only (`allow_door`). A person presses one a few
    # times a minute at most: a double click, a retry after a refusal, a room taken by someone else
    # first. Each lets a burst of ten presses through (and three tournaments opened in a minute);
    # what it stops is a script churning rooms, entries and tournaments, each of which writes ledger
    # rows and shows in a lobby for everyone.
    "tournament_open": (10, 600),  # a tournament and its pool stay for good, even cancelled
    "staked_open": (20, 600),  # open, cancel, open at another stake: a few times, not forty
    "staked_join": (30, 300),  # joins race for rooms: a player may lose several in a row
    "quick": (30, 300),  # a press, a cancel, another tier
    "rematch": (20, 300),  # one offer or answer per finished game, and a few retries
    "play_now": (30, 300),  # a press, a stop, another table: a few a minute (each may seat a table)
    # Follows and blocks (accounts.social), per person (`allow_door`): a player follows a table's
    # three others after a game, or tidies their Friends page, a few presses a minute; each press
    # writes a row, and a script following thousands would fill tables and the followed's pages.
    "follow": (30, 300),  # follow and unfollow
    "block": (20, 300),  # block and unblock
    # Challenges, per account (games/web/challenge_views.py): each one shows on another player's
    # every page, so a flood is a nuisance to them; a person challenges a few friends a minute.
    "challenge": (10, 300),
    "challenge_answer": (30, 300),  # accept, decline, withdraw: a few presses a challenge
}


@dataclass(frozen=True)
class Asker:
    """Every handle on who is asking: the browser's session key, the account, the address."""

    address: str
    session: str = ""
    account: int | None = None

    def handles(self) -> list[tuple[str, bool]]:
        """(key, is the address) for each handle this asker has."""
        found = [(f"addr:{self.address}", True)] if self.address else []
        if self.session:
            found.append((f"sess:{self.session}", False))
        if self.account is not None:
            found.append((f"user:{self.account}", False))
        return found


def asker_for_request(request: HttpRequest, player_key: str = "") -> Asker:
    user = getattr(request, "user", None)
    account = user.pk if user is not None and user.is_authenticated else None
    session = player_key or (request.session.session_key or "")
    return Asker(client_address.from_request(request), session, account)


def asker_for_scope(
    scope: dict[str, Any], player_key: str = "", account: int | None = None
) -> Asker:
    return Asker(client_address.from_scope(scope), player_key, account)


def rate(kind: str) -> tuple[int, int]:
    """(events, seconds) a person may do of `kind` (LUDOPAT_RATES, LUDOPAT_ACTION_RATE)."""
    rates = {**DEFAULT_RATES, **getattr(settings, "LUDOPAT_RATES", {})}
    if kind == "action" and hasattr(settings, "LUDOPAT_ACTION_RATE"):
        rates["action"] = settings.LUDOPAT_ACTION_RATE
    count, window = rates[kind]
    return int(count), int(window)


def address_factor() -> int:
    return int(getattr(settings, "LUDOPAT_ADDRESS_RATE_FACTOR", 4))


def check(kind: str, asker: Asker, scope: str = "", also: Rider | None = None) -> bool:
    """Count one `kind` event (in `scope`, e.g. a game id) for every handle of `asker`; False when any
    handle is over its limit. `also`: commands that ride in the counters' round trip."""
    count, window = rate(kind)
    handles = asker.handles()
    counted = _count([f"{kind}:{scope}:{handle}" for handle, _ in handles], window, also)
    limits = [count * address_factor() if is_address else count for _, is_address in handles]
    return all(n <= limit for n, limit in zip(counted, limits, strict=True))


def allow_door(kind: str, request: HttpRequest, repeat: bool = False) -> bool:
    """Whether this person may press a door that needs an account (`kind`: opening a tournament, opening
    or joining a staked room, quick match, rematch; following and blocking) now: counted against their account and browser session, not
    their address, since the doors need an account and many players share an address. A `repeat`
    (a form sent again with the idempotency key of a press already counted, which the door answers
    with the first press's result) is not counted again."""
    if repeat:
        return True
    asker = asker_for_request(request)
    return check(kind, Asker("", asker.session, asker.account))


def allow_action(game_id: str, asker: Asker, also: Rider | None = None) -> bool:
    """Whether this person may act in this game now. `also` rides in the same round trip to Redis
    (the presence read the action makes anyway: games.core.presence.Reading); it gets its replies
    whether or not the action is allowed."""
    return check("action", asker, game_id, also)


def within(kind: str, key: str, count: int, window: int) -> bool:
    """Count one more `kind` event for `key`; True while there are at most `count` in the window."""
    return _count([f"{kind}:{key}"], window)[0] <= count


def _count(names: list[str], window: int, also: Rider | None = None) -> list[int]:
    """Count one event against each counter, in one round trip to Redis (every action passes here, with
    up to three counters, and `also`'s commands); a counter's window starts at its first event.

    If Redis is unreachable the event is let through (and logged): a Redis outage must not turn every
    action into an error. `also` then gets None.
    """
    if not names and also is None:
        return []
    keys = [cache.make_and_validate_key(f"throttle:{name}") for name in names]
    try:
        pipe = redis_client().pipeline(transaction=False)
        for key in keys:
            pipe.set(key, 0, ex=window, nx=True)
            pipe.incr(key)
        if also is not None:
            also.queue(pipe)
        replies = pipe.execute()
    # Unreachable or timed out: no counting without Redis. Any other error is a bug, and raises.
    except RedisError:
        log.warning("rate limit not counted: Redis unreachable", exc_info=True)
        if also is not None:
            also.take(None)
        return [0] * len(names)
    if also is not None:
        also.take(replies[2 * len(keys) :])
    return [int(n) for n in replies[: 2 * len(keys)][1::2]]
