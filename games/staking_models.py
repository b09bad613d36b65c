"""Staked rooms' own table: the idempotency keys of their forms. (The stake itself is `Game.stake`.)

Imported by games/models.py so Django finds it.
"""

from __future__ import annotations

import contextlib

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import models
from django.dispatch import receiver


class StakeRequest(models.Model):
    """A create, join or quick-match form's idempotency key, unique per account: a repeated request
    finds the first one's row and returns its game, moving no coin."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    game = models.ForeignKey("games.Game", null=True, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="stake_request_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} -> {self.game_id}"


@receiver(user_logged_out, dispatch_uid="staked_withdraw_on_logout")
def withdraw_on_logout(sender, request, user, **kwargs) -> None:
    """Logging out withdraws the player's open staked room or quick-match entry (stake refunded)."""
    if user is not None:
        from .actions.stakes import withdraw_entry
        from .errors import GameError

        with contextlib.suppress(GameError):  # joined at this very moment: the game is on
            withdraw_entry(user.pk)
