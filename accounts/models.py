from django.contrib.auth.models import AbstractUser
from django.db import models

from .ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction, TopUpClaim  # noqa: F401


class User(AbstractUser):
    """A player's account. Email is optional (needed only for password reset)."""

    # Set by moderators: a muted player's chat messages are refused.
    is_muted = models.BooleanField(default=False)

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("profile", args=[self.username])
