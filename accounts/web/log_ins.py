"""What a log-in leaves behind (user_logged_in receivers, connected by accounts.apps): the address it
came from and the session it is kept in (accounts/users/addresses.py), and the browser it was made in
(accounts/users/browsers.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils import timezone

from ludopat.client_address import from_request

from ..users.addresses import AccountSession, LoginAddress
from ..users.browsers import record
from .middleware import NOTED, Browser, noted


def remember_address(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """user_logged_in receiver: the address, and the session the log-in is kept in."""
    if request is None:
        return
    address = from_request(request)
    if address != "unknown":  # a log-in made in code (no client) shares nothing with anyone
        LoginAddress.objects.update_or_create(
            user_id=user.pk, address=address, defaults={"last_seen": timezone.now()}
        )
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        AccountSession.objects.update_or_create(
            session_key=session.session_key, defaults={"user_id": user.pk}
        )
        # Sessions that expired (clearsessions deleted them) leave the index: it stays one row per
        # live session of the account.
        from django.contrib.sessions.models import Session

        AccountSession.objects.filter(user_id=user.pk).exclude(
            session_key=session.session_key
        ).exclude(session_key__in=Session.objects.values("session_key")).delete()


def remember_browser(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """user_logged_in receiver (sign-ups log in too): this account is now the browser's."""
    browser: Browser | None = getattr(request, "browser", None)
    if request is None or browser is None:
        return  # a log-in made in code (tests' force_login): the next request records it
    record(browser.id, user.pk)
    request.session[NOTED] = noted(browser, user.pk)
