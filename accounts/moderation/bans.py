"""A moderator bans a player, for a time or until lifted, or lifts the ban.

The player can't log in, their sessions end and their open pages are disconnected at once (after
commit), and they give up every game they sit in and every tournament they are in (banned_games). A timed ban lifts itself once its
end has passed (accounts.users.sanctions, at log-in and by beat).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.users import sockets
from accounts.users.addresses import AccountSession
from accounts.users.banned_sessions import ended_data
from accounts.users.sanctions import lift_ban

from . import audit
from .banned_games import remove_banned_player
from .errors import ModerationError
from .guards import lock_account_for, player_reason, require


def _ban_state(user: User) -> dict[str, Any]:
    return {
        "is_active": user.is_active,
        "banned_until": user.banned_until.isoformat() if user.banned_until else None,
        "ban_reason": user.ban_reason,
    }


def do_ban(moderator: User, user: User, *, reason: str, until: datetime | None = None) -> User:
    """The player can't log in, their sessions end and their open pages are disconnected at once, and
    they give up every game they sit in and every tournament they are in, at once
    (banned_games.remove_banned_player)."""
    require(moderator, "accounts.ban_user")
    reason = player_reason(reason)
    if until is not None and until <= timezone.now():
        raise ModerationError("A ban must end in the future (or leave the end empty).")
    with transaction.atomic():
        user = lock_account_for(moderator, user)
        before = _ban_state(user)
        user.is_active = False
        user.banned_at, user.banned_until, user.ban_reason = timezone.now(), until, reason
        user.save(update_fields=["is_active", "banned_at", "banned_until", "ban_reason"])
        audit.record(
            moderator, "ban", user=user, reason=reason, before=before, after=_ban_state(user)
        )
        remove_banned_player(user)
        end_sessions(user.pk)
        user_id = user.pk
        transaction.on_commit(lambda: sockets.close_user_sockets(user_id))
    return user


def do_unban(moderator: User, user: User, *, reason: str) -> User:
    require(moderator, "accounts.ban_user")
    reason = player_reason(reason)
    with transaction.atomic():
        user = lock_account_for(moderator, user)
        if not user.is_banned:
            raise ModerationError(f"{user.username} is not banned.")
        before = _ban_state(user)
        lift_ban(user)
        audit.record(
            moderator, "unban", user=user, reason=reason, before=before, after=_ban_state(user)
        )
    return user


def end_sessions(user_id: int) -> int:
    """End the account's sessions that its log-ins recorded: each keeps nothing of the log-in or the
    browser key, only a note of whose ban ended it, so the browser's next page says why. (A session the
    index missed ends at its next request: accounts.users.banned_sessions.)"""
    keys = list(
        AccountSession.objects.filter(user_id=user_id).values_list("session_key", flat=True)
    )
    ended = Session.objects.filter(session_key__in=keys).update(session_data=ended_data(user_id))
    AccountSession.objects.filter(user_id=user_id).delete()
    return ended
