"""Signal receivers of the games app, connected when the app is ready (games/apps.py)."""

from __future__ import annotations

import contextlib

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from accounts.browsers import account_changed

from .actions.stakes import withdraw_entry
from .errors import GameError


@receiver(user_logged_out, dispatch_uid="staked_withdraw_on_logout")
def withdraw_on_logout(sender, request, user, **kwargs) -> None:
    """Logging out withdraws the player's open staked room or quick-match entry (stake refunded)."""
    if user is not None:
        with contextlib.suppress(GameError):  # joined at this very moment: the game is on
            withdraw_entry(user.pk)


@receiver(account_changed, dispatch_uid="staked_withdraw_on_account_change")
def withdraw_on_account_change(sender, previous_user_id, **kwargs) -> None:
    """Another account in the same browser (a sign-up while logged in, a log-in after a log-out):
    the previous account's open staked room or quick-match entry is withdrawn (stake refunded), so
    the new one can't take it."""
    with contextlib.suppress(GameError):  # joined at this very moment: the game is on
        withdraw_entry(previous_user_id)
