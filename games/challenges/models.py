"""A challenge: one account offers another a table (free or staked), answered within minutes.

Imported by games/models.py so Django finds it (a table of the games app). It imports nothing of the
games' code: the room is named by string.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models

# A challenge nobody answers lapses: the challenger is not left waiting, and a notice that stays on a
# page past it can no longer be accepted.
LAPSES_AFTER = timedelta(minutes=2)


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        LAPSED = "lapsed", "Lapsed"
        WITHDRAWN = "withdrawn", "Withdrawn"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    ruleset = models.CharField(max_length=10)
    options = models.JSONField(default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(default=2)
    timer_seconds = models.PositiveSmallIntegerField(default=15)
    rated = models.BooleanField(default=True)
    # Coins each player stakes (0: a free table). A staked challenge is a 1 v 1 under every staked
    # rule; its coins move only when it is accepted (games.challenges.answers).
    stake = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    lapses = models.DateTimeField()
    answered = models.DateTimeField(null=True, blank=True)
    # The room: the one accepting made, or, for an invitation to a 4-seat table waiting to start
    # (a challenge to the same room), the room it seats the friend in.
    room = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="challenges"
    )

    class Meta:
        constraints = [
            # Two presses of Challenge at once make one (games.challenges.issuing).
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=models.Q(status="pending"),
                name="challenge_pending_once",
            ),
            models.CheckConstraint(
                condition=~models.Q(challenger=models.F("challenged")), name="challenge_not_self"
            ),
            models.CheckConstraint(condition=models.Q(seats__in=[2, 4]), name="challenge_seats"),
            models.CheckConstraint(
                condition=models.Q(stake=0) | models.Q(seats=2), name="challenge_staked_1v1"
            ),
        ]
        indexes = [
            # A player's incoming challenges (every page's notices, the Friends page).
            models.Index(fields=["challenged", "status"], name="challenge_to_idx"),
            # The sweep of lapsed ones.
            models.Index(
                fields=["lapses"], condition=models.Q(status="pending"), name="challenge_lapse_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger_id} challenges {self.challenged_id} ({self.status})"

    @property
    def is_staked(self) -> bool:
        return self.stake > 0
