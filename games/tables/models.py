"""Play now's waiting list: one row per press, while its player waits for a public table and after.

Imported by games/models.py so Django finds it (a table of the games app). It imports nothing of the
games' code: the game is named by string.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TableWait(models.Model):
    """A player waiting for a public table of one kind (`table`: rule set, options, seats, timer; see
    games.tables.kinds), and what became of it: seated at `game`, or stopped with `reason`."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        SEATED = "seated", "Seated"
        STOPPED = "stopped", "Stopped"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The browser's player key at the press: the seat's key at the table (games.core.actors).
    player_key = models.CharField(max_length=64, blank=True)
    table = models.CharField(max_length=64)  # the kind's key, e.g. "places:4:15:hold" (kinds.py)
    ruleset = models.CharField(max_length=10)
    seats = models.PositiveSmallIntegerField()
    timer_seconds = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    # Ticked "fill empty seats with computers after 30 s": such a table then starts unrated.
    computers = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    created = models.DateTimeField()
    # A leaver waits this long before anyone is seated with them (escalation.py); the search's range
    # widens from `ready` on.
    hold_seconds = models.PositiveIntegerField(default=0)
    ready = models.DateTimeField()
    # The waiting screen's last poll: an entry nobody is waiting at is withdrawn (sweeper.py).
    seen = models.DateTimeField()
    ended = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.CharField(max_length=200, blank=True)  # why it stopped, in words for the player

    class Meta:
        constraints = [
            # One table at a time: a second press finds the first entry (waiting.do_play_now).
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="waiting"),
                name="table_wait_one_per_user",
            )
        ]
        indexes = [
            models.Index(
                fields=["table", "created"],
                condition=models.Q(status="waiting"),
                name="table_wait_waiting_idx",
            ),
            models.Index(fields=["user", "-created"], name="table_wait_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} for {self.table} ({self.status})"
