"""Who may be followed or blocked: an account that exists and is not banned. The refusals say so in a
sentence (a follow or a block of a banned account would only fill the Friends page with someone who
can't play; an unfollow or unblock of one is always allowed, to tidy up)."""

from __future__ import annotations

from accounts.models import User
from accounts.users.sanctions import ban_in_force

from .errors import SocialError


def player_named(username: str) -> User:
    """The active account called `username`; refused with a sentence if there is none."""
    player = User.objects.filter(username=username).first()
    if player is None:
        raise SocialError(f"There is no player called {username}.", status=404)
    return player


def refuse_unreachable(user_id: int, doing: str) -> User:
    """The account `doing` (a follow, a block) is aimed at, if it exists and is not banned."""
    player = User.objects.filter(pk=user_id).first()
    if player is None:
        raise SocialError("There is no such player.", status=404)
    if ban_in_force(player) or not player.is_active:
        raise SocialError(f"{player.username} is banned: you can't {doing} them.", status=403)
    return player
