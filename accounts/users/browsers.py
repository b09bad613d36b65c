"""The browser's own identity, kept across log-ins and sign-ups, and which accounts were used in it.

Two accounts played from one browser must not play each other for coins. The session can't tell: Django's
`login()` flushes it when another account logs in (signing up while logged in included) and `logout()`
always does, so the browser key kept there is new for every account. The browser gets a long-lived
signed cookie of its own instead, and every account used in it is recorded with when it was last seen
there (`BrowserAccount`): the staked services refuse a join or a quick-match pairing between accounts
that shared a browser in the last SHARED_DAYS days, and when a browser changes account the previous
account's open staked room or quick-match entry is withdrawn (`account_changed`, received by games).

Clearing cookies (or another browser) defeats this; the shared-address collusion flag
(accounts/collusion.py) is the backstop.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "ludopat_browser"
SALT = "ludopat.browser"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
SHARED_DAYS = 90
NOTED = "ludopat_browser_noted"  # in the session: the browser, account and day last recorded

# Sent when an account is recorded in a browser whose latest account was another one, with
# `previous_user_id` (that one) and `user_id` (the new one).
account_changed = Signal()


class BrowserAccount(models.Model):
    """An account used in a browser (its `browser` cookie's id): one row per pair."""

    browser = models.CharField(max_length=32)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["browser", "user"], name="browser_account_once")
        ]
        indexes = [models.Index(fields=["user", "last_seen"], name="browser_account_user_seen")]

    def __str__(self) -> str:
        return f"{self.user_id} in browser {self.browser[:6]}…"


class Browser:
    """A request's browser id: read from its signed cookie, or made the first time it is needed (then
    the middleware sends the cookie with the response)."""

    def __init__(self, request: HttpRequest) -> None:
        raw = request.get_signed_cookie(COOKIE, default=None, salt=SALT)
        self._id = raw if isinstance(raw, str) and 0 < len(raw) <= 32 else None
        self.send_cookie = False

    @property
    def id(self) -> str:
        if self._id is None:
            self._id = secrets.token_urlsafe(16)
            self.send_cookie = True
        return self._id


def record(browser_id: str, user_id: int) -> None:
    """`user_id` is used in this browser now; if the browser's latest account was another, say so
    (`account_changed`), so that account's open staked entry is withdrawn."""
    now = timezone.now()
    rows = BrowserAccount.objects.filter(browser=browser_id)
    latest = rows.order_by("-last_seen", "-pk").values_list("user_id", flat=True).first()
    BrowserAccount.objects.update_or_create(
        browser=browser_id, user_id=user_id, defaults={"last_seen": now}
    )
    if latest is not None and latest != user_id:
        account_changed.send(BrowserAccount, previous_user_id=latest, user_id=user_id)


def accounts_sharing_a_browser_with(user_id: int) -> set[int]:
    """Other accounts seen in a browser this account was also seen in, both in the last SHARED_DAYS."""
    since = timezone.now() - timedelta(days=SHARED_DAYS)
    browsers = BrowserAccount.objects.filter(user_id=user_id, last_seen__gte=since).values(
        "browser"
    )
    return set(
        BrowserAccount.objects.filter(browser__in=browsers, last_seen__gte=since)
        .exclude(user_id=user_id)
        .values_list("user_id", flat=True)
    )


def share_a_browser(user_id: int, other_id: int) -> bool:
    return other_id in accounts_sharing_a_browser_with(user_id)


def _note(browser: Browser, user_id: int) -> str:
    return f"{browser.id}:{user_id}:{timezone.now().date().isoformat()}"


def remember_browser(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """user_logged_in receiver (sign-ups log in too): this account is now the browser's."""
    browser: Browser | None = getattr(request, "browser", None)
    if request is None or browser is None:
        return  # a log-in made in code (tests' force_login): the next request records it
    record(browser.id, user.pk)
    request.session[NOTED] = _note(browser, user.pk)


class BrowserMiddleware:
    """Gives each request its `browser`; records a logged-in account once a day per session (sessions
    from before a log-in could record it, and the record's last-seen stays fresh); sends the cookie
    when the id is new, and again when recording, which keeps it from expiring."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        browser = Browser(request)
        request.browser = browser  # type: ignore[attr-defined]  # HttpRequest's, for this site
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            note = _note(browser, user.pk)
            if request.session.get(NOTED) != note:
                record(browser.id, user.pk)
                request.session[NOTED] = note
                browser.send_cookie = True
        response = self.get_response(request)
        if browser.send_cookie:
            response.set_signed_cookie(
                COOKIE,
                browser.id,
                salt=SALT,
                max_age=COOKIE_MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
