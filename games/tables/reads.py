"""The Play now waiting screen's reads: the player's entry, how many wait for that table, how long the
player has waited, whom the list looks for (the rating range now, widening), and a leaver's hold."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from leaderboard.ratings.reads import shown_ratings

from ..staking.pairing import search_range
from .kinds import COMPUTERS_AFTER, TableKind
from .models import TableWait
from .waiting import kind_of_entry


@dataclass(frozen=True)
class Progress:
    entry: TableWait
    kind: TableKind
    waiting: int  # players waiting for this kind of table, the player included
    waited_seconds: int
    held_seconds: int  # a leaver's hold still to run (0: searching)
    rating: int
    provisional: bool
    reach: int | None  # how far either side of the rating the list looks now; None: anyone
    computers_in: int  # seconds until computers may take the empty seats (when ticked)

    @property
    def low(self) -> int:
        return self.rating - (self.reach or 0)

    @property
    def high(self) -> int:
        return self.rating + (self.reach or 0)

    @property
    def waited(self) -> str:
        """ "0:42": minutes and seconds, the way a queue's clock reads."""
        minutes, seconds = divmod(self.waited_seconds, 60)
        return f"{minutes}:{seconds:02d}"


def latest_entry(user_id: int) -> TableWait | None:
    """The player's waiting entry, else their latest one (seated or stopped)."""
    rows = TableWait.objects.filter(user_id=user_id)
    waiting = rows.filter(status=TableWait.Status.WAITING).first()
    return waiting or rows.order_by("-created", "-pk").first()


def progress(entry: TableWait) -> Progress:
    now = timezone.now()
    searching = max(0.0, (now - entry.ready).total_seconds())
    rating = shown_ratings([entry.user_id], entry.ruleset)[entry.user_id]
    count = TableWait.objects.filter(table=entry.table, status=TableWait.Status.WAITING).count()
    return Progress(
        entry,
        kind_of_entry(entry),
        count,
        int(max(0.0, (now - entry.created).total_seconds())),
        int(max(0.0, (entry.ready - now).total_seconds()) + 0.999),
        rating.value,
        rating.provisional,
        search_range(searching),
        int(max(0.0, COMPUTERS_AFTER - searching) + 0.999) if entry.computers else 0,
    )
