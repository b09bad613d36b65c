"""Staked rooms' own table: the idempotency keys of their forms. (The stake itself is `Game.stake`.)

Imported by games/models.py so Django finds it (the model is in the games app, its table unchanged).
It imports nothing of the games' code: the game is named by string.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StakeRequest(models.Model):
    """A create, join or quick-match form's idempotency key, unique per account: a repeated request
    finds the first one's row and returns its game, moving no coin."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    # What the first request asked for (games.staking.keys.fingerprint): the same key with another
    # request is refused. Empty for keys stored before it was kept.
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    game = models.ForeignKey("games.Game", null=True, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="stake_request_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} -> {self.game_id}"
