"""Follows and blocks, in the accounts app (Django finds them through accounts.models). Accounts are
named by AUTH_USER_MODEL, so nothing here imports accounts.models (which imports this module)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Follow(models.Model):
    """`follower` keeps `followed` on their Friends page. One way: following asks nothing of the other."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """`blocker` keeps `blocked` away: no challenge, follow or chat from them, and no public table
    seats the two together (whichever of them blocked)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_reverse_idx")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
