"""Results of finished rounds and the standings summed from them.

`Result` is written once per seat when a round ends (leaderboard.results); `Standing` is the running
sum per player x rule set x board x period, updated in the same transaction, so a leaderboard page is
an indexed read of `Standing`, never a scan of `Result`. `PairDay` counts the rounds two accounts
played together on a UTC day, for the 5-a-day rule. `Rating` is a player's skill per rule set
(leaderboard.ratings, docs/ratings.md), moved by the rated results in the same transaction; each
rated `Result` keeps the rating it left its player with, so the ratings can be rebuilt from them.
`PlayerHistory` and `PlaceTally` are what a player
page needs of a long history (how many rounds, how many of each place), kept as the rounds are written,
so a player page costs the same after ten rounds or a hundred thousand.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import RULESETS, Round

ALL_RULESETS = "all"  # the Standing row that sums every rule set


class Board(models.TextChoices):
    PEOPLE = "people", "Against people"  # rounds where every other seat is another account
    ALL = "all", "All games"  # also rounds against the computer


class Period(models.TextChoices):
    WEEK = "week", "Week"  # ISO week, from Monday 00:00 UTC
    MONTH = "month", "Month"  # calendar month, UTC
    ALL = "all", "All time"


class Result(models.Model):
    """One seat's outcome of one finished round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    seat_index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="results",
    )  # null: a computer, or a guest without an account
    name = models.CharField(max_length=150)  # the seat's name when the round ended
    is_computer = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField()  # 1 is first
    players = models.PositiveSmallIntegerField()
    points = models.PositiveSmallIntegerField()
    ruleset = models.CharField(max_length=10, choices=RULESETS)
    against_people = models.BooleanField()  # every seat of the round was a different account
    coins = models.IntegerField(default=0)  # won (+) or lost (-) in a staked round
    how = models.CharField(
        max_length=10
    )  # how the round ended (a games.core.round_ends.RoundEnd value)
    void = models.BooleanField(default=False)  # agreed, idle or voided: counts for nobody
    counted = models.BooleanField(
        default=False
    )  # in the standings (an account, not void, not capped)
    finished_at = models.DateTimeField()
    # The player's rating right after this round (leaderboard.ratings); all null where the round was
    # not rated for this seat (not counted, not against people, or alone among the counted accounts).
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    rating_change = models.IntegerField(null=True, blank=True)  # the shown number's change: +12
    # The account's nth result, 1 the oldest (by finish time; of two at the same moment the later
    # written comes first), numbered without gaps as the results are written: page N of a player's
    # rounds is a range of these numbers, never an OFFSET over their history. None: no account.
    number = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-finished_at", "seat_index"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat_index"], name="result_once_per_seat")
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="result_player_recent"),
            models.Index(fields=["user", "number"], name="result_player_numbered"),
            # The player page's rating charts: a player's rated results alone, read from the index
            # (ratings/player.py groups them by day there).
            models.Index(
                fields=["user", "ruleset", "finished_at"],
                include=["id"],
                condition=models.Q(rating_mu__isnull=False),
                name="result_player_rated",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: place {self.place} of {self.players} ({self.points})"


class Standing(models.Model):
    """A player's sums for one rule set (or all), board and period."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standings"
    )
    ruleset = models.CharField(max_length=10)  # a rule set's name, or ALL_RULESETS
    board = models.CharField(max_length=6, choices=Board.choices)
    period = models.CharField(max_length=5, choices=Period.choices)
    start = models.DateField()  # the period's first day (all time: a fixed date)
    points = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    coins = models.IntegerField(default=0)
    # When the player reached their current points: the last tie-break (earlier ranks higher).
    reached_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "ruleset", "board", "period", "start"], name="standing_unique"
            )
        ]
        indexes = [
            # The table's exact order (user last, for ties), so a page is an index range with no sort.
            models.Index(
                fields=[
                    "ruleset",
                    "board",
                    "period",
                    "start",
                    "-points",
                    "-wins",
                    "reached_at",
                    "user",
                ],
                name="standing_order",
            ),
            # The counts: a table's size (its page count) and the rows with more points (a rank).
            # Narrow, so PostgreSQL keeps equal keys as one entry with a list of rows: the counts
            # read an eighth of what they read from the order above, and count about 4 times
            # faster (docs/performance.md, "A narrow index for the counts").
            models.Index(
                fields=["ruleset", "board", "period", "start", "points"], name="standing_points"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.user_id} {self.ruleset}/{self.board}/{self.period} {self.start}: {self.points}"
        )

    @property
    def win_rate(self) -> int:
        """Wins as a whole percentage of games."""
        return round(100 * self.wins / self.games) if self.games else 0


class PairDay(models.Model):
    """How many rounds between two accounts counted on a UTC day (at most 5 do)."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    rounds = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high", "day"], name="pair_day_unique")
        ]

    def __str__(self) -> str:
        return f"{self.low_id}+{self.high_id} {self.day}: {self.rounds}"


class Rating(models.Model):
    """A player's skill in one rule set (leaderboard.ratings): Plackett-Luce's mu and sigma, and the
    number shown for them (kept, so the rating board is an index range)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    ruleset = models.CharField(max_length=10, choices=RULESETS)
    mu = models.FloatField()
    sigma = models.FloatField()
    value = models.IntegerField()  # shown: 1500 + 60 * (mu - 25), rounded
    games = models.PositiveIntegerField(default=0)  # rated rounds
    last_played = models.DateTimeField(null=True, blank=True)  # the last rated round's end

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="rating_once_per_ruleset")
        ]
        indexes = [
            models.Index(fields=["ruleset", "-value", "user"], name="rating_board_order"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset}: {self.value} ({self.games} games)"


class RatingReplay(models.Model):
    """A rule set whose ratings are being rebuilt from a result on (a round was taken out of the
    standings); the pages say "recalculating" while a row exists (leaderboard.ratings.rating_replay)."""

    ruleset = models.CharField(max_length=10, choices=RULESETS, unique=True)
    from_result = models.BigIntegerField()  # the first Result id to rate again
    requested_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.ruleset} from result {self.from_result}"


class PlayerHistory(models.Model):
    """How many results an account has (every round it finished, counted or not) and when the latest
    finished: the player page's page count without counting, and the row whose lock numbers the
    account's results one writer at a time."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    rounds = models.PositiveIntegerField(default=0)
    latest = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rounds} rounds"


class PlaceTally(models.Model):
    """How many of an account's counted results in a rule set took each place (the places chart)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=10, choices=RULESETS)
    place = models.PositiveSmallIntegerField()
    rounds = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset", "place"], name="place_tally_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset} place {self.place}: {self.rounds}"
