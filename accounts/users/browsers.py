"""The browser's own identity, kept across log-ins and sign-ups, and which accounts were used in it.

Two accounts played from one browser must not play each other for coins. The session can't tell: Django's
`login()` flushes it when another account logs in (signing up while logged in included) and `logout()`
always does, so the browser key kept there is new for every account. The browser gets a long-lived
signed cookie of its own instead, and every account used in it is recorded with when it was last seen
there (`BrowserAccount`): the staked services refuse a join or a quick-match pairing between accounts
that shared a browser in the last SHARED_DAYS days, and when a browser changes account the previous
account's open staked room or quick-match entry is withdrawn (`account_changed`, received by games).

The cookie is read and sent by accounts/web/middleware.py. Clearing cookies (or another browser) defeats this; the shared-address collusion flag
(accounts/moderation/collusion.py) is the backstop.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.dispatch import Signal
from django.utils import timezone

SHARED_DAYS = 90

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
