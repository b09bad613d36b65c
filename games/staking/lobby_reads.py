"""What the staked lobby reads: the rooms waiting for an opponent, their hosts' staked records and
ratings, and the stakes in bands from one quick-match tier up to the next (below the first tier, a band
of its own), each with the tier's prize and how many players wait and play in it, and the open rooms
that fall in it: the way Ludo King lists its entry fees."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from accounts.ledger import rules
from leaderboard.models import Result
from leaderboard.ratings.reads import ShownRating, shown_ratings

from ..models import Game
from .terms import Terms, terms


def open_rooms(limit: int) -> QuerySet[Game]:
    """Staked rooms waiting for an opponent, oldest first (quick-match entries and rematch offers,
    which are someone's alone, are not listed)."""
    return (
        Game.objects.filter(stake__gt=0, quick=False, status=Game.Status.OPEN, invitee__isnull=True)
        .select_related("owner")
        .order_by("created", "pk")[:limit]
    )


def staked_records(user_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """{user id: (staked games won, lost)}, from the stored results of the staked games they played
    to a place: a win is first place. (Refunded games, which end with no places, count as neither.)"""
    records: dict[int, list[int]] = {}
    rows = Result.objects.filter(user_id__in=list(user_ids), round__game__stake__gt=0)
    for user_id, place in rows.values_list("user_id", "place"):
        record = records.setdefault(user_id, [0, 0])
        record[0 if place == 1 else 1] += 1
    return {user_id: (won, lost) for user_id, (won, lost) in records.items()}


def host_ratings(rooms: Iterable[Game]) -> dict[str, ShownRating]:
    """{room id: its host's rating in the room's rule set} (one query per rule set listed)."""
    by_ruleset: dict[str, list[Game]] = {}
    for room in rooms:
        if room.owner_id is not None:
            by_ruleset.setdefault(room.ruleset, []).append(room)
    out: dict[str, ShownRating] = {}
    for ruleset, listed in by_ruleset.items():
        ratings = shown_ratings({r.owner_id for r in listed if r.owner_id is not None}, ruleset)
        out |= {r.pk: ratings[r.owner_id] for r in listed if r.owner_id is not None}
    return out


# --- the lobby's bands ----------------------------------------------------------------------------


@dataclass
class Band:
    low: int
    high: int
    tier: int | None  # the quick-match stake the band starts at (None: below the first tier)
    terms: Terms | None
    waiting: int = 0  # players waiting in a room or a quick-match entry with a stake in the band
    playing: int = 0  # players in staked games in play with a stake in the band
    rooms: list[Game] = field(default_factory=list)

    def holds(self, stake: int) -> bool:
        return self.low <= stake <= self.high


def _empty_bands() -> list[Band]:
    low, high = rules.stake_bounds()
    tiers = sorted(t for t in set(rules.stake_tiers()) if low <= t <= high)
    bands = []
    if not tiers or low < tiers[0]:
        bands.append(Band(low, (tiers[0] - 1) if tiers else high, None, None))
    for i, tier in enumerate(tiers):
        top = tiers[i + 1] - 1 if i + 1 < len(tiers) else high
        bands.append(Band(tier, top, tier, terms(tier)))
    return bands


def _players_by_stake() -> tuple[Counter[int], Counter[int]]:
    """({stake: players waiting}, {stake: players playing}). A rematch offer waits for one person
    only, so nobody else counts it as someone waiting."""
    rows = (
        Game.objects.filter(stake__gt=0, status__in=(Game.Status.OPEN, Game.Status.PLAYING))
        .exclude(Q(status=Game.Status.OPEN) & Q(invitee__isnull=False))
        .order_by()
        .values_list("stake", "status")
        .annotate(n=Count("pk"))
    )
    waiting: Counter[int] = Counter()
    playing: Counter[int] = Counter()
    for stake, status, games in rows:
        if status == Game.Status.OPEN:
            waiting[stake] += games  # an open room has its host alone
        else:
            playing[stake] += 2 * games  # 1 v 1
    return waiting, playing


def bands(rooms: list[Game]) -> list[Band]:
    """Every band of stakes, with its counts and the listed `rooms` whose stake falls in it."""
    found = _empty_bands()
    waiting, playing = _players_by_stake()
    for band in found:
        band.waiting = sum(n for stake, n in waiting.items() if band.holds(stake))
        band.playing = sum(n for stake, n in playing.items() if band.holds(stake))
        band.rooms = [room for room in rooms if band.holds(room.stake)]
    return found
