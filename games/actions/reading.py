"""Reading: the games a person can continue."""

from __future__ import annotations

from django.db.models import Q

from ..actors import Actor
from ..models import Game, Seat


def unfinished_games(actor: Actor, limit: int = 12) -> list[Game]:
    """The actor's games that can be continued: owned local games and seats in friends rooms."""
    live = [Game.Status.OPEN, Game.Status.PLAYING]
    owned = Q(owner_key=actor.key) if actor.key else Q(pk__in=[])
    if actor.user_id is not None:
        owned |= Q(owner_id=actor.user_id)
        seated = Q(seats__user_id=actor.user_id, seats__kind=Seat.Kind.HUMAN, seats__resigned=False)
    else:
        seated = Q(
            seats__player_key=actor.key,
            seats__user__isnull=True,
            seats__kind=Seat.Kind.HUMAN,
            seats__resigned=False,
        )
    found = Game.objects.filter(status__in=live).filter(owned | seated).distinct()
    return list(found.order_by("-updated")[:limit])
