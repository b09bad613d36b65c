"""The network addresses an account logged in from, kept so moderators can see two accounts that share
one (a collusion flag). Written on each log-in; one row per account and address."""

from __future__ import annotations

from django.conf import settings
from django.db import models
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


def remember_address(sender, request, user, **kwargs) -> None:
    """user_logged_in receiver."""
    if request is None:
        return
    LoginAddress.objects.update_or_create(
        user=user, address=from_request(request), defaults={"last_seen": timezone.now()}
    )
