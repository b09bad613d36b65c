"""Who is looking at a game's board: a spectator, the owner of a computer or pass & play table, one seat
of a friends room (host or guest), a signed-in visitor who may join an open room, an anonymous one.

Whose tokens are clickable and which buttons show differ per viewpoint; everything else a board shows
is the same for all, so the regions of a board that differ are rendered once per version and what of
the viewpoint they read (the one to play, another player, a watcher; a player's own card), the others
once per version, and shared by every connection (games.live.fragments).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import actors
from ..core.actors import Actor
from ..models import Game, Seat


@dataclass(frozen=True)
class Viewpoint:
    key: str  # names the rendering: "spectator", "owner", "seat-1", "host-0", "guest", "anon"
    seats: tuple[int, ...] = ()  # seat indexes this viewer plays
    host: bool = False
    can_join: bool = False
    anonymous: bool = False

    @property
    def is_player(self) -> bool:
        return bool(self.seats)


def viewpoint_for(game: Game, seats: list[Seat], actor: Actor) -> Viewpoint:
    mine = tuple(s.index for s in actors.seats_of(game, seats, actor))
    host = actors.owns(game, actor)
    if game.mode != Game.Mode.FRIENDS:
        return Viewpoint("owner", mine, host=host) if mine else Viewpoint("spectator")
    if mine:
        return Viewpoint(f"{'host' if host else 'seat'}-{mine[0]}", mine, host=host)
    if game.status == Game.Status.OPEN and any(s.kind == Seat.Kind.OPEN for s in seats):
        if game.invitee_id is not None and game.invitee_id != actor.user_id:
            return Viewpoint("spectator")  # a rematch offered to someone else
        if actor.is_authenticated:
            return Viewpoint("guest", can_join=True)
        return Viewpoint("anon", anonymous=True)
    return Viewpoint("spectator")
