"""The rules every moderator action follows: the moderator holds the permission, the account acted on
is locked first and may be acted on by this moderator, and a reason is given."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from accounts.models import User

from .errors import ModerationError


def require(moderator: User, permission: str) -> None:
    if not (moderator.is_active and moderator.is_staff and moderator.has_perm(permission)):
        raise ModerationError("You don't have permission to do that.")


def lock_account(user: User) -> User:
    """The account's row, locked first (the lock order is in games/actions/core.py). NO KEY: a game's
    transaction writing a row that points at the account (a result, a chat line) must not wait for
    the moderator while it holds the game the moderator's action is about to lock."""
    return get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)


def lock_account_for(moderator: User, user: User) -> User:
    """The account an action is about, its row locked and checked against the rules every moderator
    action on an account follows (one check for all: mute, ban, rename, coins, lifting a mute or a ban,
    and resolving a report through `may_act_on`)."""
    user = lock_account(user)
    may_act_on(moderator, user)  # read from the locked row: a promotion racing the action is seen
    return user


def may_act_on(moderator: User, user: User) -> None:
    if user.pk == moderator.pk:
        raise ModerationError("You can't do that to your own account.")
    if user.is_staff and not moderator.is_superuser:
        raise ModerationError("Only a superuser can do that to a staff account.")


def player_reason(reason: str) -> str:
    """The reason a player is shown: one line of at most 200 characters, never empty."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason: the player is shown it.")
    return reason[:200]
