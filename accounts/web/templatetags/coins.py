from __future__ import annotations

from django import template

from accounts.ledger.history import balance_of

register = template.Library()


@register.simple_tag
def coin_balance(user) -> int | None:
    """The signed-in player's wallet balance (for the nav); None for a visitor."""
    if user is None or not user.is_authenticated:
        return None
    return balance_of(user.pk)


@register.filter
def coins(amount) -> str:
    """12345 -> "12,345"; a signed amount keeps its sign: -50 -> "-50", 180 -> "+180" with `coins_signed`."""
    return f"{int(amount):,}" if amount is not None else ""


@register.filter
def coins_signed(amount) -> str:
    return f"{int(amount):+,}" if amount is not None else ""


@register.simple_tag
def ledger_alarm(user):
    """The last ledger check's problems, for the Admin group's banner (None for everyone else)."""
    from accounts.ledger.watch import alarm

    return alarm(user)
