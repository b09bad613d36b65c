from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone

from .ledger.models import (  # noqa: F401
    LedgerAccount,
    LedgerCheck,
    LedgerEntry,
    LedgerTransaction,
    TopUpClaim,
)
from .users.addresses import AccountSession, LoginAddress  # noqa: F401  (models: found through here)
from .users.browsers import BrowserAccount  # noqa: F401


class User(AbstractUser):
    """A player's account. Email is optional (needed only for password reset).

    Accounts are deactivated, never deleted: a ban sets `is_active` off (Django then refuses the log-in
    and every session's user) and records why and until when; accounts/moderation/bans.py does it.
    """

    # A chat mute: the player's messages are refused until then, and they are told why.
    muted_until = models.DateTimeField(null=True, blank=True)
    mute_reason = models.CharField(max_length=200, blank=True)
    # A ban in force (banned_at set): until `banned_until`, or until lifted when that is empty.
    banned_at = models.DateTimeField(null=True, blank=True)
    banned_until = models.DateTimeField(null=True, blank=True)
    ban_reason = models.CharField(max_length=200, blank=True)

    class Meta(AbstractUser.Meta):
        permissions = [
            ("ban_user", "Can ban and unban players"),
            ("mute_user", "Can mute and unmute players' chat"),
            ("rename_user", "Can rename a player"),
            ("adjust_coins", "Can adjust a player's coins"),
        ]
        # The deadline sweeper looks for banned accounts' seats every 2 s: only the few banned rows.
        indexes = [
            models.Index(
                fields=["banned_at"],
                condition=models.Q(banned_at__isnull=False),
                name="user_banned_idx",
            ),
            # Every leaderboard read leaves out the inactive (banned) accounts: only their few rows,
            # never a scan of every account.
            models.Index(
                fields=["is_active"],
                condition=models.Q(is_active=False),
                name="user_inactive_idx",
            ),
        ]

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("profile", args=[self.username])

    @property
    def is_muted(self) -> bool:
        return self.muted_until is not None and self.muted_until > timezone.now()

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None


class CollusionFlag(User):
    """The admin's page of collusion flags (accounts.moderation.collusion); a proxy, so it has a
    permission. Here beside User, not in moderation's models, which this module imports."""

    class Meta:
        proxy = True
        verbose_name = "collusion flag"


# Moderation's models (the reports queue, the audit log) live in its package; Django finds them
# through here. They name accounts by AUTH_USER_MODEL and import nothing of this module.
from .moderation.audit import AuditLog  # noqa: E402, F401
from .moderation.models import Report  # noqa: E402, F401
from .social.models import Block, Follow  # noqa: E402, F401
