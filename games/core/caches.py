"""The process's caches, all of them: what each key means, what each holds and when it is filled.

A process (a web worker, a socket worker, a Celery worker) serves many viewers of the same version of a
game within milliseconds: the mover's answer, the other seats' and the spectators' sockets. What it
works out for a version is kept here so that each viewer after the first costs little. Three rules make
a cache impossible to get wrong, and every cache of the process follows them:

1. **Filled only from committed data.** `keep` puts a value when the transaction it was worked out in
   commits (`transaction.on_commit`: at once outside a transaction, never if it rolls back). An action
   that computes a state and then rolls back leaves nothing behind, so the different action another
   process commits at that version is never shown with this one's state.
2. **Immutable values.** States (NamedTuples of tuples), histories (frozen dataclasses), HTML strings,
   and a game's rows as column values (`Rows`): each reader gets Game and Seat objects of its own
   (`Rows.build`), never one shared between the threads of the process.
3. **The key names everything the value depends on.** A version is never rewritten once committed
   (each change a player can see appends one action and bumps it; rule 1 keeps uncommitted versions
   out), so what depends on the game alone is keyed by (game, round, version). A board fragment also
   shows what changes without a new version: presence, the deadline, a rematch offer, and the names
   (a rename commits in any process); its stamps hold all of them (games.core.stamp, the push's
   and the render's one), and a fragment is served only for the same stamps. Actions check the version only (games.actions.core.check_version).
   ROWS are read for the pushes of a version (`game_and_seats_at`) and, for the newest version the
   process kept, by the checks an action makes before its lock (`game_and_seats_named`), which the
   action repeats under it: every other render (a page, a POST's answer, the push of a change that
   makes no new version, such as presence, a deadline or a rename) reads the game afresh and replaces
   them, so a socket's next render of that version shows the change too; no time window.

| cache     | key                      | value                                   | filled                        |
|-----------|--------------------------|-----------------------------------------|-------------------------------|
| STATES    | (game, round, version)   | the engine State of that version        | on commit of the action that  |
|           |                          |                                         | computed it, or of a replay   |
| HISTORIES | (game, round, version)   | History (last token, roll, log, kept    | on commit of the render's read|
|           |                          | rounds)                                 | (games.live.history)          |
| FRAGMENTS | "live:{game}:{region}:{variant}", "live:{game}:vp:{viewpoint}" | (tag, names tag, HTML or the variants): newest only | on commit of the render |
| CONTEXTS  | game                     | (tag, names tag, what a board's context | on commit of the render       |
|           |                          | holds alike for every viewer): newest   |                               |
| GROUNDS   | the ground's key         | a board's ground (SVG): the same for    | when first drawn (a pure      |
|           |                          | every board of a layout                 | function of the layout)       |
| STEPS     | (game, version)          | Step: the roll or move that made it     | on commit of that action      |
| ROWS      | (game, version)          | Rows: the game and seats as read        | on commit of any read of them |
|           |                          | once committed                          | (games.core.selectors.             |
|           |                          |                                         | game_and_seats), the newest   |
|           |                          |                                         | read replacing it             |
| NEWEST    | game                     | the newest version ROWS holds of it     | with ROWS                     |

Each but GROUNDS is a bounded LRU (games.core.lru.Recent) shared by the threads of the process; tests
empty them with `clear_all` (GROUNDS, never stale, stays with the memoised drawing that fills it).
"""

from __future__ import annotations

import copy
import marshal
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from .. import engine
from ..models import Game, Seat
from .lru import Recent

# Enough for every game a process serves to keep its newest versions (a state is a few hundred bytes).
STATES: Recent[tuple[str, int, int], engine.State] = Recent(2048)


@dataclass(frozen=True)
class History:
    """What a board shows from the action log and the finished rounds (games.live.history reads it)."""

    last_token: tuple | None  # the token moved last this round (highlighted)
    last_roll: tuple[int, ...]  # this round's last roll
    log: tuple[tuple, ...]  # (seq, kind, text) of the newest narrated actions, newest first
    rounds: tuple[int, ...]  # numbers of the rounds kept for replay


# Each version appends one action (its seq is the version) and the log is never rewritten, so a
# version's history never changes.
HISTORIES: Recent[tuple[str, int, int], History] = Recent(2048)


@dataclass(frozen=True)
class Step:
    """A roll or a move as the board's history reads it: the action that made a version."""

    round: int
    kind: str
    token: tuple | None  # the token a move moved
    roll: tuple[int, ...] | None  # the numbers a roll threw
    text: str


# (game, version): the roll or move that made that version, kept by the process that made it, so the
# renders of the version there take the history one step on without reading the action back.
STEPS: Recent[tuple[str, int], Step] = Recent(2048)

# A board's regions per (game, region, variant of the viewpoint), and per (game, viewpoint) the variants
# its last board was made of (games.live.fragments): a region is a few KB (the board's, without its
# ground, about 10), some 12 per game, so at most some 40 MB. Only the newest of each is read again (a
# new version replaces the last), each with its tag and the tag of the names it shows.
FRAGMENTS: Recent[str, tuple[str, str, str]] = Recent(12000)

# Each board's ground (the yards, squares and centre under the tokens) by its key, as the boards carry
# it: a push to a page that shows that ground already carries an empty placeholder instead
# (games.live.fragments.for_page_showing), about 15 KB of a board's 26. Put by the drawing that makes
# it (games.live.board_view), a pure function of which colours play where, so it needs no commit and
# is never stale; a few dozen layouts in all.
GROUNDS: dict[str, str] = {}


@dataclass(frozen=True)
class Rows:
    """A game and its seats (with their accounts) as column values, read once committed."""

    game: tuple[Any, ...]
    seats: tuple[tuple[tuple[Any, ...], tuple[Any, ...] | None], ...]

    @classmethod
    def of(cls, game: Game, seats: list[Seat]) -> Rows:
        return cls(
            _values(game),
            tuple((_values(s), _values(s.user) if s.user is not None else None) for s in seats),
        )

    def build(self) -> tuple[Game, list[Seat]]:
        """Objects of the caller's own, made from the kept values without a query."""
        game = _instance(Game, self.game)
        seats = []
        for seat_values, user_values in self.seats:
            seat = _instance(Seat, seat_values)
            seat.game = game
            seat.user = _instance(get_user_model(), user_values) if user_values else None
            seats.append(seat)
        return game, seats


# What a version's renders read: shared by the renders of that version in this process (the POST's
# answer and every socket's push), each building its own objects from it.
ROWS: Recent[tuple[str, int], Rows] = Recent(512)

# (game): the newest version of the game whose rows were put in ROWS (`put_rows`). An action naming it
# is checked, before its lock, on those rows (`newest_rows`); one naming an older version, on a read.
NEWEST: Recent[str, int] = Recent(2048)
_putting_rows = threading.Lock()


def put_rows(key: tuple[str, int], rows: Rows) -> None:
    """Keep the committed `rows` of version `key` (game, version), and note it if it is the newest."""
    game_id, version = key
    with _putting_rows:  # two threads' versions of one game: the newer one stays noted
        ROWS.put(key, rows)
        newest = NEWEST.get(game_id)
        if newest is None or version >= newest:
            NEWEST.put(game_id, version)


def keep_rows(key: tuple[str, int], rows: Rows) -> None:
    """`put_rows` once what they were read in is committed (rule 1)."""
    _when_committed(lambda: put_rows(key, rows))


def newest_rows(game_id: str, version: int) -> Rows | None:
    """The rows kept for `version` of the game if no newer version of it was kept here; else None."""
    if NEWEST.get(game_id) != version:
        return None
    return ROWS.get((game_id, version))


# What every viewpoint's board context holds alike at a game's newest stamps (games.live.presenter's
# `shared_context`: plain values, never a Game or Seat): one per game.
CONTEXTS: Recent[str, tuple[str, str, dict[str, Any]]] = Recent(2048)


def keep(cache: Recent[Any, Any], key: Any, value: Any) -> None:
    """Put `value` under `key` once what it was worked out from is committed (rule 1)."""
    _when_committed(lambda: cache.put(key, value))


def _when_committed(put: Any) -> None:
    """`put` when the transaction under way commits; at once outside one, as `transaction.on_commit`
    does in autocommit, without the checks that made it cost a third more (the renders before a
    push, games.web.local_boards, run outside any transaction and keep several values per version).
    Outside a transaction the connection is in autocommit: nothing in the project turns it off."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        connection.on_commit(put)
    else:
        put()


# The game and seats objects an action just committed, in the thread that committed them: the renders
# that thread makes for the push before it goes (games.web.local_boards) read them as they are, where
# any other reader builds objects of its own from ROWS. Read-only use, in that thread, before its
# next action: the action is over, and nothing writes them again.
_committed = threading.local()


def committed_here(key: tuple[str, int], game: Game, seats: list[Seat]) -> None:
    _committed.rows = (key, game, seats)


def committed_rows(key: tuple[str, int]) -> tuple[Game, list[Seat]] | None:
    """This thread's own objects of version `key`, if it just committed them; else None."""
    found = getattr(_committed, "rows", None)
    if found is None or found[0] != key:
        return None
    return found[1], found[2]


def keep_many(cache: Recent[Any, Any], items: list[tuple[Any, Any]]) -> None:
    """`keep` of each (key, value), put together when the transaction commits."""
    if items:
        _when_committed(lambda: cache.put_many(items))


def clear_all() -> None:
    for cache in (STATES, HISTORIES, STEPS, FRAGMENTS, ROWS, NEWEST, CONTEXTS):
        cache.clear()


def _values(obj: Any) -> tuple[Any, ...]:
    # JSON columns hold lists and dicts: kept as a copy, and copied again for each reader (build).
    return tuple(_copied(getattr(obj, f.attname) for f in obj._meta.concrete_fields))


def _instance(model: Any, values: tuple[Any, ...]) -> Any:
    names = [f.attname for f in model._meta.concrete_fields]
    return model.from_db("default", names, _copied(values))


def _copied(values: Iterable[Any]) -> list[Any]:
    """The values with each list and dict (a JSON column's) deep-copied; the rest (numbers, strings,
    datetimes, UUIDs) are immutable and shared. Deep-copying every column cost more than building the
    objects did."""
    return [_json_copy(v) if isinstance(v, (list, dict)) else v for v in values]


def _json_copy(value: list | dict) -> Any:
    """A deep copy of a JSON column's value: through marshal, a tenth of `copy.deepcopy`'s time for
    the lists, dicts, strings and numbers JSON holds; deepcopy for anything marshal can't take."""
    try:
        return marshal.loads(marshal.dumps(value))  # noqa: S302  bytes made on the line, never read in
    except ValueError:
        return copy.deepcopy(value)
