"""What a log-in leaves behind for the moderators: the network addresses an account logged in from (two
accounts sharing one is a collusion flag; one row per account and address) and the sessions it holds
(a ban ends them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LoginAddress(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_addresses"
    )
    address = models.CharField(max_length=64, db_index=True)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "address"], name="login_address_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} from {self.address}"


class AccountSession(models.Model):
    """The sessions an account logged in with, so a ban deletes them without reading every session
    (sessions are stored by key only; most are anonymous visitors')."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=True
    )
    session_key = models.CharField(max_length=40, unique=True)

    def __str__(self) -> str:
        return f"{self.user_id}: session {self.session_key[:6]}…"
