"""A moderator mutes a player's chat until a moment, or lifts the mute; the player is refused with the
reason until then (accounts.users.sanctions.mute_notice)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User

from . import audit
from .errors import ModerationError
from .guards import lock_account_for, player_reason, require


def _mute_state(user: User) -> dict[str, Any]:
    until = user.muted_until.isoformat() if user.muted_until else None
    return {"muted_until": until, "mute_reason": user.mute_reason}


def do_mute(moderator: User, user: User, *, until: datetime, reason: str) -> User:
    require(moderator, "accounts.mute_user")
    reason = player_reason(reason)
    if until <= timezone.now():
        raise ModerationError("A mute must end in the future.")
    with transaction.atomic():
        user = lock_account_for(moderator, user)
        before = _mute_state(user)
        user.muted_until, user.mute_reason = until, reason
        user.save(update_fields=["muted_until", "mute_reason"])
        audit.record(
            moderator, "mute", user=user, reason=reason, before=before, after=_mute_state(user)
        )
    return user


def do_unmute(moderator: User, user: User, *, reason: str) -> User:
    require(moderator, "accounts.mute_user")
    reason = player_reason(reason)
    with transaction.atomic():
        user = lock_account_for(moderator, user)
        before = _mute_state(user)
        user.muted_until, user.mute_reason = None, ""
        user.save(update_fields=["muted_until", "mute_reason"])
        audit.record(
            moderator, "unmute", user=user, reason=reason, before=before, after=_mute_state(user)
        )
    return user
