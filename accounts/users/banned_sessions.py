"""A banned account's sessions end, including those the session index never recorded (log-ins from
before it existed): Django gives such a session no user, but it still holds the browser key that owns
the account's games against the computer and at one screen. The first request that brings one ends it
(`EndBannedSessions`, accounts/web/middleware.py), and a game socket opened with one controls nothing (games.web.consumers)."""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore
from django.core.exceptions import ValidationError

from accounts.models import User

from .sanctions import ban_in_force

# All an ended session keeps: the banned account's id, so the browser is told why until the ban ends.
BANNED_ACCOUNT = "ludopat_banned_account"


def banned_account_of(
    session: SessionBase | None, user: AbstractBaseUser | AnonymousUser | None
) -> User | None:
    """The banned account `session` is still logged in as (Django refused it as `user`), or None."""
    if session is None or (user is not None and user.is_authenticated):
        return None
    raw = session.get(SESSION_KEY)
    if raw is None:
        return None
    users = get_user_model()
    try:
        pk = users._meta.pk.to_python(raw)
    except ValidationError:
        return None
    account = users.objects.filter(pk=pk).first()
    return account if ban_in_force(account) else None


def end_session(session: SessionBase, account_id: int) -> None:
    """Nothing of the log-in or the browser key is left (a new session key, the old row deleted)."""
    session.flush()
    session[BANNED_ACCOUNT] = account_id


def ended_data(account_id: int) -> str:
    """The stored form of an ended session (the ban rewrites the sessions its index knows to this)."""
    return SessionStore().encode({BANNED_ACCOUNT: account_id})
