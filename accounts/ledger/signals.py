"""Every new account gets its wallet and welcome grant, however it was created (connected in
accounts/apps.py, so the ledger's models never import its services)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Model
from django.db.models.signals import post_save
from django.dispatch import receiver

from .books import wallet_of


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="ledger_open_wallet")
def open_wallet_with_grant(
    sender: type[Model], instance: Model, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """The wallet and grant are written in the transaction that creates the account (sign-up, admin,
    createsuperuser, a script); fixtures (raw) bring their own ledger."""
    if created and not raw:
        wallet_of(instance.pk)
