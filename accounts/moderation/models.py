"""Moderation's models, in the accounts app (Django finds them through accounts.models): the reports
queue. The audit log's model is in audit.py, with `record`; the admin's page of collusion flags is a
proxy of the account, accounts.models.CollusionFlag. Accounts are named by AUTH_USER_MODEL, so
nothing here imports accounts.models (which imports this module)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Report(models.Model):
    """A player's report to the moderators, about one of two things: a chat message (`message` set; the
    message's author is `reported`, and `game` its game) or a player (`message` empty; `reported` is the
    player, and `game` the game it came from, if any). Together they are the one queue moderators work
    through; a moderator resolves a report with an outcome (reports.do_resolve_report).

    Its table is still `games_chatreport`: it held only message reports once, as games.ChatReport.
    """

    class Outcome(models.TextChoices):
        OPEN = "", "Open"
        DISMISSED = "dismissed", "Dismissed"
        HIDDEN = "hidden", "Message hidden"
        MUTED = "muted", "Player muted"
        BANNED = "banned", "Player banned"

    class About(models.TextChoices):
        MESSAGE = "message", "a message"
        PLAYER = "player", "a player"

    message = models.ForeignKey(
        "games.ChatMessage",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="reports",
        help_text="The reported message; empty for a report of a player.",
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reports_against",
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True, default="")
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)  # the moderator's reason

    class Meta:
        db_table = "games_chatreport"
        ordering = ["created", "pk"]
        verbose_name = "report"
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
            models.UniqueConstraint(
                fields=["reported", "reporter"],
                condition=models.Q(message__isnull=True, resolved_at__isnull=True),
                name="player_report_open_once",
            ),
        ]
        indexes = [
            models.Index(fields=["resolved_at", "created"], name="games_chatr_resolve_ad81da_idx")
        ]

    def __str__(self) -> str:
        return f"Report {self.pk} of {self.About(self.about).label}"

    @property
    def about(self) -> str:
        """What the report is about: About.MESSAGE or About.PLAYER."""
        return self.About.MESSAGE if self.message_id else self.About.PLAYER

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None
