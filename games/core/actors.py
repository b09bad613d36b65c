"""Who is asking: a person in a browser (account and/or browser key) and what they may control."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase

from accounts.users.sanctions import ban_notice

from ..models import Game, Seat
from .errors import Banned, NotAllowed


@dataclass(frozen=True)
class Actor:
    """A person in a browser: the account if logged in, and the browser's own player key.

    The key lives in the session (it survives logging in, which rotates the session id), so a game
    started before signing in stays yours.

    `from_client`: this person was read from a request or a socket (`actor_for`, the game consumer),
    which may have been authenticated before a ban committed; the `do_*` functions check them against
    bans under the game's lock (`refuse_banned`). The moderators' own moves for a banned player and
    the system's moves are not from a client.
    """

    user_id: int | None
    key: str
    username: str = ""
    from_client: bool = False

    @property
    def is_authenticated(self) -> bool:
        return self.user_id is not None

    @classmethod
    def system(cls) -> Actor:
        return cls(None, "")


PLAYER_KEY = "ludopat_player"


def player_key(session: SessionBase) -> str:
    key = session.get(PLAYER_KEY)
    if not key:
        key = secrets.token_urlsafe(24)
        session[PLAYER_KEY] = key
    return key


def actor_for(user: AbstractBaseUser | AnonymousUser | None, session: SessionBase) -> Actor:
    key = player_key(session)
    if user is not None and user.is_authenticated:
        return Actor(user.pk, key, user.get_username(), from_client=True)
    return Actor(None, key, from_client=True)


def refuse_banned(game: Game, seats: list[Seat], actor: Actor) -> None:
    """Banned (with until when and why) if the person asking acts for a banned account: their own, or,
    through their browser key, the account that owns the game (a game against the computer or at one
    screen). Called by every player's action under the game's lock, after its seats were read with
    their accounts: a ban that committed after the request or the socket was authenticated is seen,
    and for the players of the game it costs no query."""
    if not actor.from_client:
        return
    accounts = set() if actor.user_id is None else {actor.user_id}
    if game.owner_id is not None and actor.key and game.owner_key == actor.key:
        accounts.add(game.owner_id)
    if not accounts:
        return
    rows = {s.user_id: s.user for s in seats if s.user_id in accounts}
    missing = accounts - rows.keys()
    if missing:  # a guest joining, the owner of a game at one screen: their rows are not read yet
        rows.update((u.pk, u) for u in get_user_model().objects.filter(pk__in=missing))
    for account in rows.values():
        notice = ban_notice(account)
        if notice:
            raise Banned(notice)


def owns(game: Game, actor: Actor) -> bool:
    if actor.user_id is not None and game.owner_id == actor.user_id:
        return True
    return bool(actor.key) and game.owner_key == actor.key


def sits_in(seat: Seat, actor: Actor) -> bool:
    if seat.kind != Seat.Kind.HUMAN:
        return False
    if actor.user_id is not None and seat.user_id == actor.user_id:
        return True
    return seat.user_id is None and bool(actor.key) and seat.player_key == actor.key


def controls(game: Game, seat: Seat, actor: Actor) -> bool:
    """Whether `actor` may act for `seat` (the owner plays every person's seat at a local table)."""
    if game.mode == Game.Mode.FRIENDS:
        return sits_in(seat, actor)
    return seat.kind in (Seat.Kind.HUMAN, Seat.Kind.LOCAL) and owns(game, actor)


def seats_of(game: Game, seats: list[Seat], actor: Actor) -> list[Seat]:
    return [s for s in seats if controls(game, s, actor)]


def playing_seats(game: Game, seats: list[Seat], actor: Actor, refusal: str) -> list[Seat]:
    """The actor's seats that are still in the game; NotAllowed with `refusal` if there are none."""
    mine = [s for s in seats_of(game, seats, actor) if not s.resigned]
    if not mine:
        raise NotAllowed(refusal)
    return mine
