"""The staking's signal receivers, connected when the games app is ready (games/apps.py): leaving an
account withdraws its open staked room or quick-match entry."""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from accounts.models import User
from accounts.users.browsers import account_changed

from ..core.errors import GameError
from .sweeper import do_withdraw_entry


@receiver(user_logged_out, dispatch_uid="staked_withdraw_on_logout")
def withdraw_on_logout(
    sender: type[User], request: object, user: User | None, **kwargs: Any
) -> None:
    """Logging out withdraws the player's open staked room or quick-match entry (stake refunded)."""
    if user is not None:
        with contextlib.suppress(GameError):  # joined at this very moment: the game is on
            do_withdraw_entry(user.pk)


@receiver(account_changed, dispatch_uid="staked_withdraw_on_account_change")
def withdraw_on_account_change(sender: object, previous_user_id: int, **kwargs: Any) -> None:
    """Another account in the same browser (a sign-up while logged in, a log-in after a log-out):
    the previous account's open staked room or quick-match entry is withdrawn (stake refunded), so
    the new one can't take it."""
    with contextlib.suppress(GameError):  # joined at this very moment: the game is on
        do_withdraw_entry(previous_user_id)
