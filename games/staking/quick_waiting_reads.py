"""A quick-match entry's waiting screen: the time waited, the player's rating and the range of ratings
searched now (pairing.search_range), and who else waits or plays at that stake."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count
from django.utils import timezone

from leaderboard.ratings.reads import DEFAULT_RATING, ShownRating, shown_ratings

from ..models import RULESET_NAMES, Game
from .pairing import search_range
from .terms import Terms, terms


@dataclass(frozen=True)
class Progress:
    entry: Game
    terms: Terms
    waited_seconds: int
    others_waiting: list[tuple[str, int]]  # (rule set's name, players) at this stake, besides them
    playing: int  # players in staked games in play at this stake
    rating: int  # the player's shown rating in the entry's rule set
    provisional: bool
    reach: int | None  # how far either side of it opponents are searched now; None: anyone

    @property
    def low(self) -> int:
        return self.rating - (self.reach or 0)

    @property
    def high(self) -> int:
        return self.rating + (self.reach or 0)

    @property
    def waited(self) -> str:
        """ "0:42", "12:05": minutes and seconds, the way a queue's clock reads."""
        minutes, seconds = divmod(self.waited_seconds, 60)
        return f"{minutes}:{seconds:02d}"

    @property
    def others(self) -> int:
        return sum(n for _, n in self.others_waiting)


def quick_entry(game_id: str, user_id: int) -> Game | None:
    """The player's own quick-match entry with this id, in any state (None if it isn't theirs)."""
    return Game.objects.filter(pk=game_id, quick=True, owner_id=user_id).first()


def _rating_of(entry: Game) -> ShownRating:
    """The entry's player's rating in its rule set (the default for an entry whose account is gone)."""
    if entry.owner_id is None:
        return DEFAULT_RATING
    return shown_ratings([entry.owner_id], entry.ruleset)[entry.owner_id]


def progress(entry: Game) -> Progress:
    stake = entry.stake
    waiting = Counter(
        dict(
            Game.objects.filter(
                stake=stake, status=Game.Status.OPEN, quick=True, invitee__isnull=True
            )
            .exclude(pk=entry.pk)
            .order_by()
            .values_list("ruleset")
            .annotate(n=Count("pk"))
            .values_list("ruleset", "n")
        )
    )
    playing = Game.objects.filter(stake=stake, status=Game.Status.PLAYING).count()
    waited = max(0.0, (timezone.now() - entry.created).total_seconds())
    rating = _rating_of(entry)
    return Progress(
        entry,
        terms(stake),
        int(waited),
        [(RULESET_NAMES.get(name, name), n) for name, n in sorted(waiting.items())],
        2 * playing,
        rating.value,
        rating.provisional,
        search_range(waited),
    )
