"""The Friends page and a finished game's "follow the others" panel: whom a player follows, who of them
is online now (first), the game each is seated in to watch; the players they blocked.

Online is the site's presence (`accounts/users/online.py`: an account with a live connection) or, for
a friend seated at a game in play, their seat's presence at that table (`games/core/presence.py`): a
player at a table is online though no other page of theirs is open. The game to watch is a game in
play where they hold a seat: a public table or a tournament's match, both open to any spectator. A
private room is never shown: its address is its invitation, and following asks nothing of the
followed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from accounts.models import User
from accounts.social.reads import blocked_either_way, blocked_list, followed_ids, follows
from accounts.users.online import online_among

from ..core import presence
from ..models import Game, Seat

FRIENDS_SHOWN = 200  # a page lists at most this many (the latest followed)


@dataclass(frozen=True)
class Friend:
    user_id: int
    name: str
    online: bool
    game_id: str | None  # a game in play to watch, None if they play none that may be watched
    game_ruleset: str


@dataclass(frozen=True)
class TableMate:
    """Another account at a finished table, for the viewer's follow buttons."""

    name: str
    followed: bool
    blocked: bool  # either way: no follow is offered


def friends_of(user_id: int, limit: int = FRIENDS_SHOWN) -> list[Friend]:
    """The accounts `user_id` follows, online first, then by name (four queries and two Redis round
    trips, plus one per friend seated at a game)."""
    ids = followed_ids(user_id)[:limit]
    names = dict(
        User.objects.filter(pk__in=ids, is_active=True).values_list("pk", "username")
    )  # a banned account leaves the list until its ban ends
    games = _games_to_watch(list(names))
    online = online_among(list(names))
    for game_id, seats in _by_game(games).items():
        here = presence.connected_seats(game_id)
        online |= {uid for uid, seat_id in seats if seat_id in here}
    friends = [
        Friend(
            uid,
            name,
            uid in online,
            games[uid][0] if uid in games else None,
            games[uid][1] if uid in games else "",
        )
        for uid, name in names.items()
    ]
    return sorted(friends, key=lambda f: (not f.online, f.name.lower()))


def _games_to_watch(ids: list[int]) -> dict[int, tuple[str, str, int]]:
    """user id -> (game id, rule set's name, seat id) of the newest watchable game they play in."""
    if not ids:
        return {}
    seats = (
        Seat.objects.filter(
            user_id__in=ids,
            kind=Seat.Kind.HUMAN,
            resigned=False,
            game__status=Game.Status.PLAYING,
        )
        .filter(Q(game__public=True) | Q(game__in_tournament=True))
        .select_related("game")
        .order_by("game__started")
    )
    # The newest last: it wins.
    return {s.user_id: (s.game_id, s.game.ruleset_name, s.pk) for s in seats if s.user_id}


def _by_game(games: dict[int, tuple[str, str, int]]) -> dict[str, list[tuple[int, int]]]:
    found: dict[str, list[tuple[int, int]]] = {}
    for uid, (game_id, _, seat_id) in games.items():
        found.setdefault(game_id, []).append((uid, seat_id))
    return found


def blocked_players(user_id: int) -> list[str]:
    """The names of the accounts `user_id` blocked, by name."""
    return [name for _, name in blocked_list(user_id)]


def table_mates(game: Game, viewer_id: int) -> list[TableMate]:
    """The other accounts seated at `game`, in seat order, and whether `viewer_id` follows each."""
    seats = Seat.objects.filter(game=game, kind=Seat.Kind.HUMAN, user__isnull=False)
    others = [
        (uid, name)
        for uid, name in seats.order_by("index").values_list("user_id", "user__username")
        if uid != viewer_id
    ]
    return [
        TableMate(name, follows(viewer_id, uid), blocked_either_way(viewer_id, uid))
        for uid, name in others
    ]
