from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerCheck
from accounts.models import User

register = template.Library()


@register.simple_tag
def coin_balance(user: User | AnonymousUser | None) -> int | None:
    """The signed-in player's wallet balance (for the nav); None for a visitor."""
    if user is None or not user.is_authenticated:
        return None
    return balance_of(user.pk)


@register.filter
def coins(amount: int | None) -> str:
    """12345 -> "12,345"; a signed amount keeps its sign: -50 -> "-50", 180 -> "+180" with `coins_signed`."""
    return f"{int(amount):,}" if amount is not None else ""


@register.filter
def coins_signed(amount: int | None) -> str:
    return f"{int(amount):+,}" if amount is not None else ""


@register.simple_tag
def ledger_alarm(user: Any) -> LedgerCheck | None:
    """The last ledger check's problems, for the Admin group's banner (None for everyone else)."""
    from accounts.ledger.watch import alarm

    return alarm(user)
