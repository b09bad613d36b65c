"""A rule set's ratings rated again from its results, a stretch of result ids at a time, and the writes
of what that gives (leaderboard.ratings.rating_replay puts the steps together; docs/ratings.md).

Nothing here holds a row a round's end needs for longer than one batch: a `Rebuild` reads and rates
without locks, `write_results` and `write_ratings` write in batches of their own transactions (the
rating rows of a batch taken in ascending id, as a round's end takes its players'), and only the
replay's short catch-up runs in one transaction, holding the rule set's lock.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Max, Min

from ..models import Rating, Result
from .rule_set_lock import no_one_rating
from .scale import DEFAULT_MU, DEFAULT_SIGMA, shown
from .skill import NEW_PLAYER, Skill, rate_places
from .writes import update_rows

WRITE_BATCH = 2000
NEW_SHOWN = shown(DEFAULT_MU)
COLUMNS = (
    "pk",
    "round_id",
    "user_id",
    "place",
    "counted",
    "against_people",
    "finished_at",
    "rating_mu",
    "rating_sigma",
    "rating_change",
)
Change = tuple[int, float | None, float | None, int | None]  # a result's id, mu, sigma, change


@dataclass
class Player:
    skill: Skill
    games: int
    last_played: datetime | None


@dataclass
class Rebuild:
    """The players' ratings as the rule set's results up to id `upto` leave them."""

    ruleset: str
    players: dict[int, Player]
    upto: int
    rounds: int = 0  # rated rounds rated again
    touched: set[int] = field(default_factory=set)  # players rated since `touched` was emptied

    @classmethod
    def starting(cls, ruleset: str, from_result: int) -> Rebuild:
        """Before the first whole round at or after result `from_result` (0: from scratch)."""
        start = _whole_rounds_from(ruleset, from_result)
        return cls(ruleset, _players_before(ruleset, start), start - 1)

    def rate_until(self, upto: int | None) -> list[Change]:
        """Rate the results after `upto` up to `upto` (None: every one there is); the stored changes
        that differ from what they give."""
        later = Result.objects.filter(ruleset=self.ruleset, pk__gt=self.upto)
        if upto is not None:
            later = later.filter(pk__lte=upto)
        tables: dict[
            int, list[tuple]
        ] = {}  # round id: its results, rounds in the order of their first
        last = self.upto
        for row in later.order_by("pk").values_list(*COLUMNS).iterator(chunk_size=WRITE_BATCH):
            tables.setdefault(row[1], []).append(row)
            last = row[0]
        self.upto = upto if upto is not None else last
        changed: list[Change] = []
        for table in tables.values():
            changed += self._rate_round(table)
        return changed

    def _rate_round(self, table: list[tuple]) -> list[Change]:
        rated = sorted(
            (row for row in table if row[4] and row[5] and row[2] is not None),
            key=lambda row: row[3],
        )
        stored = {row[0]: (row[7], row[8], row[9]) for row in table}
        new: dict[int, tuple[float | None, float | None, int | None]] = dict.fromkeys(
            stored, (None, None, None)
        )
        if len(rated) >= 2:
            self.rounds += 1
            before = [self.players.get(row[2], Player(NEW_PLAYER, 0, None)) for row in rated]
            after = rate_places([p.skill for p in before])
            for row, old, skill in zip(rated, before, after, strict=True):
                new[row[0]] = (skill.mu, skill.sigma, skill.shown - old.skill.shown)
                self.players[row[2]] = Player(skill, old.games + 1, row[6])
                self.touched.add(row[2])
        return [(pk, *values) for pk, values in new.items() if stored[pk] != values]


def committed_up_to(ruleset: str) -> int:
    """A result id up to which every result a round's end rated in `ruleset` has committed: the
    last one written, read while no round's end rates there (those rating are waited for, and any
    that starts later writes its results after this id)."""
    with transaction.atomic():
        no_one_rating(ruleset)
        return Result.objects.aggregate(last=Max("pk"))["last"] or 0


def write_results(changed: list[Change]) -> int:
    """Write the results' new stored changes, a batch a transaction. Returns the results written."""
    for first in range(0, len(changed), WRITE_BATCH):
        with transaction.atomic():
            update_rows(
                Result,
                ["rating_mu", "rating_sigma", "rating_change"],
                changed[first : first + WRITE_BATCH],
            )
    return len(changed)


def write_ratings(ruleset: str, players: dict[int, Player], only: Collection[int] = ()) -> int:
    """Set the rating rows of the rule set (`only` these players', if given) to `players` (a row
    whose player has no rated result left gets the new player's rating back), a batch a transaction
    (in the caller's, if it has one). Returns the rows written."""
    if only:
        missing = set(only) - set(
            Rating.objects.filter(ruleset=ruleset, user_id__in=only).values_list(
                "user_id", flat=True
            )
        )
    else:
        missing = players.keys() - set(
            Rating.objects.filter(ruleset=ruleset).values_list("user_id", flat=True)
        )
    Rating.objects.bulk_create(  # a round's end may make one meanwhile: its values are set below
        [
            Rating(user_id=u, ruleset=ruleset, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, value=NEW_SHOWN)
            for u in missing
        ],
        batch_size=WRITE_BATCH,
        ignore_conflicts=True,
    )
    changed = differing(ruleset, players, only)
    for first in range(0, len(changed), WRITE_BATCH):
        batch = changed[first : first + WRITE_BATCH]
        with transaction.atomic():
            # Ascending id, as a round's end takes its players' rows: the two never deadlock.
            rows = Rating.objects.select_for_update().filter(pk__in=[row[0] for row in batch])
            list(rows.order_by("pk").values_list("pk"))
            update_rows(Rating, ["mu", "sigma", "value", "games", "last_played"], batch)
    return len(changed)


def differing(
    ruleset: str, players: dict[int, Player], only: Collection[int] = ()
) -> list[tuple[int, float, float, int, int, datetime | None]]:
    """(id, mu, sigma, shown, games, last played) of the rating rows that differ from `players`
    (`only` these players', if given)."""
    rows = Rating.objects.filter(ruleset=ruleset)
    if only:
        rows = rows.filter(user_id__in=only)
    out = []
    for pk, user_id, *stored in rows.order_by("pk").values_list(
        "pk", "user_id", "mu", "sigma", "value", "games", "last_played"
    ):
        player = players.get(user_id, Player(NEW_PLAYER, 0, None))
        want = (player.skill.mu, player.skill.sigma, player.skill.shown, player.games)
        if tuple(stored) != (*want, player.last_played):
            out.append((pk, *want, player.last_played))
    return out


def missing_ratings(ruleset: str, players: Iterable[int]) -> int:
    """How many of `players` (rated) have no rating row in the rule set."""
    wanted = set(players)
    have = Rating.objects.filter(ruleset=ruleset, user_id__in=wanted).count()
    return len(wanted) - have


def _whole_rounds_from(ruleset: str, from_result: int) -> int:
    """The first result id from which whole rounds follow: a round's results are written by one
    statement, but another round's may take ids between them, so a round may straddle `from_result`."""
    start = from_result
    while start > 0:
        straddling = Result.objects.filter(
            ruleset=ruleset,
            round_id__in=Result.objects.filter(ruleset=ruleset, pk__gte=start).values("round_id"),
            pk__lt=start,
        ).aggregate(first=Min("pk"))["first"]
        if straddling is None:
            break
        start = straddling
    return start


def _players_before(ruleset: str, start: int) -> dict[int, Player]:
    """Each player's rating as their last rated result before `start` left it."""
    if start <= 0:
        return {}
    earlier = Result.objects.filter(
        ruleset=ruleset, pk__lt=start, rating_mu__isnull=False, user_id__isnull=False
    )
    last = {
        row["user_id"]: (row["last"], row["games"])
        for row in earlier.values("user_id").annotate(last=Max("pk"), games=Count("pk"))
    }
    rows = Result.objects.filter(pk__in=[pk for pk, _ in last.values()]).values_list(
        "user_id", "rating_mu", "rating_sigma", "finished_at"
    )
    return {
        user_id: Player(Skill(mu, sigma), last[user_id][1], when)
        for user_id, mu, sigma, when in rows
        if user_id is not None and mu is not None and sigma is not None  # as filtered above
    }
