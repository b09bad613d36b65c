"""What a log-in leaves behind for the moderators: the network addresses an account logged in from (two
accounts sharing one is a collusion flag; one row per account and address) and the sessions it holds
(a ban ends them)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.http import HttpRequest
from django.utils import timezone

from ludopat.client_address import from_request


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


def remember_address(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """user_logged_in receiver: the address, and the session the log-in is kept in."""
    if request is None:
        return
    # The account by id: accounts.models loads this module, which can't name its User model.
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
