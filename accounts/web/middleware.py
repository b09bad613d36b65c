"""Accounts' middleware: the browser's own id in a signed cookie (the records it keys are
accounts/users/browsers.py), and a banned account's sessions ended at their first request
(accounts/users/banned_sessions.py)."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from ..users.banned_sessions import BANNED_ACCOUNT, banned_account_of, end_session
from ..users.browsers import record
from ..users.sanctions import ban_notice_for

COOKIE = "ludopat_browser"
SALT = "ludopat.browser"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
NOTED = "ludopat_browser_noted"  # in the session: the browser, account and day last recorded


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


def noted(browser: Browser, user_id: int) -> str:
    return f"{browser.id}:{user_id}:{timezone.now().date().isoformat()}"


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
            note = noted(browser, user.pk)
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


class EndBannedSessions:
    """After AuthenticationMiddleware: a request whose session is logged in as a banned account ends
    that session before any view sees its browser key; while the ban lasts, the pages of an ended
    session say why (`request.ban_notice`, shown by base.html). Costs a query only for such a
    session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session: SessionBase | None = getattr(request, "session", None)
        logged_in = session is not None and SESSION_KEY in session
        account = banned_account_of(session, request.user) if logged_in else None
        if session is not None and account is not None:
            end_session(session, account.pk)
        if session is not None and BANNED_ACCOUNT in session:
            banned = session[BANNED_ACCOUNT]
            notice = "" if request.user.is_authenticated else ban_notice_for(banned)
            if notice:
                request.ban_notice = notice  # type: ignore[attr-defined]  # read by base.html
            else:  # lifted or over, or someone has logged in on this browser since
                del session[BANNED_ACCOUNT]
        return self.get_response(request)
