"""A tournament's tables (the games app's; games/models.py imports them so Django finds them): the
tournament and its pool, the players registered, and the bracket's matches, each played in a timed
room of its own (`Game`) without a stake.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TournamentSeries(models.Model):
    """An admin's recurring tournament: beat opens each instance (a scheduled Tournament) ahead of
    its slot (games.tournaments.series). Slots are wall-clock times in `time_zone`: hourly at
    `at_time`'s minute, or daily at `at_time`."""

    class Every(models.TextChoices):
        HOURLY = "hourly", "Every hour"
        DAILY = "daily", "Every day"

    name = models.CharField(max_length=80)
    ruleset = models.CharField(max_length=10, default="twodice")
    size = models.PositiveSmallIntegerField()
    buy_in = models.PositiveIntegerField()
    timer_seconds = models.PositiveSmallIntegerField(default=15)
    every = models.CharField(max_length=10, choices=Every.choices, default=Every.DAILY)
    at_time = models.TimeField(help_text="Daily: the start time. Hourly: its minute is used.")
    time_zone = models.CharField(max_length=64, default="UTC")
    # How long before its slot an instance opens for registration.
    open_minutes = models.PositiveSmallIntegerField(default=60)
    active = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "tournament series"

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """A sit-and-go knockout of 1 v 1 two-dice matches. The buy-ins sit in `pool`, a ledger account
    that only this row points at (the ledger knows nothing of tournaments)."""

    class Status(models.TextChoices):
        OPEN = "open", "Registering"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    size = models.PositiveSmallIntegerField()  # 4, 8 or 16 players (rules.SIZES)
    buy_in = models.PositiveIntegerField()
    ruleset = models.CharField(max_length=10, default="twodice")
    timer_seconds = models.PositiveSmallIntegerField(default=15)  # each match's clock, per action
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    pool = models.OneToOneField(
        "accounts.LedgerAccount", on_delete=models.PROTECT, related_name="tournament"
    )
    # The player who opened it from the lobby (registered with it, in its transaction); None: the
    # admin's. A player hosts one registering tournament at a time.
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # An admin's scheduled start (beat starts it then; not full then, it is cancelled and refunded).
    # None: a sit-and-go, which starts by itself once full.
    scheduled_for = models.DateTimeField(null=True, blank=True)
    # When it starts: a full sit-and-go's countdown ("starting in 10 s"), or the scheduled time.
    starts_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # The last time a match opened or ended (the admin flags a bracket that stands still).
    progressed = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=300, blank=True)
    # Bumped by every change the bracket page shows: a page that saw it renders nothing new.
    version = models.PositiveIntegerField(default=0)
    # The series beat opened it for (its slot is `scheduled_for`); None: a one-off.
    series = models.ForeignKey(
        "games.TournamentSeries",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="instances",
    )

    class Meta:
        permissions = [("cancel_tournament", "Can cancel a tournament (every buy-in back)")]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_status_start_idx"),
        ]
        constraints = [
            # One instance per slot, whichever beat (or repeated run) opens it first.
            models.UniqueConstraint(
                fields=["series", "scheduled_for"],
                condition=models.Q(series__isnull=False),
                name="tournament_series_slot_once",
            ),
        ]

    def __str__(self) -> str:
        return f"Tournament #{self.pk}: {self.size} players, {self.buy_in:,} coins"

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)


class TournamentEntry(models.Model):
    """A player registered in a tournament (their buy-in is in its pool). Leaving before the start
    deletes the row (the buy-in comes back); after it, leaving is a forfeit."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    joined = models.DateTimeField(auto_now_add=True)
    seed = models.PositiveSmallIntegerField(null=True, blank=True)  # bracket position, at the start
    # The best place this finish shares: 1, 2, 3 (3rd-4th), 5 (5th-8th), 9 (9th-16th); None: still in.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    forfeited = models.BooleanField(default=False)  # left after the start, or banned
    prize = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entry_once"),
        ]
        indexes = [models.Index(fields=["user", "tournament"], name="tournament_entry_user_idx")]

    def __str__(self) -> str:
        return f"user {self.user_id} in tournament {self.tournament_id}"


class TournamentMatch(models.Model):
    """One match of the bracket: round 1 is the first; slot counts from 0 within a round. The two
    players come from the slots 2*slot and 2*slot+1 of the round before (or the seeding)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    first = models.ForeignKey(
        TournamentEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    second = models.ForeignKey(
        TournamentEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner = models.ForeignKey(
        TournamentEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The room the match is played in (the latest: a match whose round ended for nobody is replayed).
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_match",
    )
    walkover = models.BooleanField(default=False)  # decided without play: a player forfeited
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "tournament matches"
        ordering = ["round", "slot"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "slot"], name="tournament_match_once"
            ),
        ]

    def __str__(self) -> str:
        return f"tournament {self.tournament_id} round {self.round} match {self.slot + 1}"
