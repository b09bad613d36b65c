"""A mute's and a ban's state on an account, as the rest of the site reads it: whether one is in force,
the sentence the player is told, and a timed ban lifting itself once its end has passed.

Moderators decide mutes and bans (accounts.moderation); the games, the log-in, the sessions and the
sockets only read them, from here, so nothing below moderation imports it. It reads and writes the
account's own fields and nothing else.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.models import User


def when(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%d %b %Y %H:%M %Z")


# --- mutes ---------------------------------------------------------------------------------------------


def mute_notice(user: User | None) -> str:
    """The sentence a muted player is refused with, or "" if they may chat."""
    if user is None or user.muted_until is None or not user.is_muted:
        return ""
    return f"Muted until {when(user.muted_until)}: {user.mute_reason}"


def mute_notice_for(user_id: int | None) -> str:
    """mute_notice for an account id (one query, only for a logged-in viewer)."""
    if user_id is None:
        return ""
    user = get_user_model().objects.filter(pk=user_id, muted_until__gt=timezone.now()).first()
    return mute_notice(user)


# --- bans ----------------------------------------------------------------------------------------------


def ban_in_force(user: User | None) -> bool:
    """Banned now: a timed ban whose end has passed no longer counts, even before it is lifted."""
    if user is None or user.banned_at is None:
        return False
    return user.banned_until is None or user.banned_until > timezone.now()


def ban_notice(user: User | None) -> str:
    """What a banned player is told (on their open pages, at their next request, at log-in once the
    password was right), or "" if no ban is in force."""
    if user is None or not ban_in_force(user):
        return ""
    until = f" until {when(user.banned_until)}" if user.banned_until else ""
    return f"Your account is banned{until}: {user.ban_reason}"


def ban_notice_for(user_id: int) -> str:
    """ban_notice for an account id (one query)."""
    return ban_notice(get_user_model().objects.filter(pk=user_id).first())


def lift_ban(user: User) -> None:
    """The account is active again and keeps no trace of the ban (the audit log does)."""
    user.is_active = True
    user.banned_at, user.banned_until, user.ban_reason = None, None, ""
    user.save(update_fields=["is_active", "banned_at", "banned_until", "ban_reason"])


def lift_expired_ban(username: str) -> bool:
    """A timed ban whose end has passed is lifted when the player next tries to log in
    (accounts.users.backends). It was the moderator's decision, so it is not audited again."""
    users = get_user_model().objects
    with transaction.atomic():
        user = (
            users.select_for_update(no_key=True)
            .filter(username=username, banned_at__isnull=False, banned_until__lte=timezone.now())
            .first()
        )
        if user is None:
            return False
        lift_ban(user)
        return True


def lift_expired_bans() -> int:
    """Every timed ban whose end has passed is lifted (beat runs this; a log-in attempt does it too),
    so the player's profile and standings come back on time. Returns how many were lifted."""
    users = (
        get_user_model()
        .objects.filter(banned_at__isnull=False, banned_until__lte=timezone.now())
        .values_list("username", flat=True)
    )
    return sum(lift_expired_ban(username) for username in list(users))
