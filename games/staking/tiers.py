"""What the staked lobby and the quick-match waiting screen show (reads only, nothing is written).

- `terms(stake)`: a staked game's money in one place: each stake, the pot, the house's cut and what the
  winner takes, so the lobby, the waiting screen, the game's header and its result say the same.
- `bands(rooms)`: the stakes in bands from one quick-match tier up to the next (below the first tier,
  a band of its own), each with the tier's prize and how many players wait and play in it, and the
  open rooms that fall in it: the way Ludo King lists its entry fees.
- `limit_for(user_id)` and `tier_choices(limit)`: which quick-match tiers a player may enter now, and
  why not the others (a new account's cap, a wallet too short), so the lobby never offers a stake the
  action would refuse.
- `progress(entry)`: a quick-match entry's waiting screen: the time waited, the player's rating and
  the range of ratings searched now (pairing.search_range), and who else waits or plays at that stake.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from accounts.ledger import rules
from accounts.ledger.history import balance_of
from leaderboard.ratings.reads import DEFAULT_RATING, ShownRating, shown_ratings

from ..models import RULESET_NAMES, Game
from .pairing import search_range
from .rules import is_new_player


@dataclass(frozen=True)
class Terms:
    """The coins of a staked 1 v 1 game: both players stake `stake`; the winner takes `prize`, the
    pot less the house's cut (`rules.rake_of`, as the ledger pays it)."""

    stake: int
    pot: int
    rake: int
    prize: int

    @property
    def net_win(self) -> int:
        """What a win adds to the winner's coins: the prize less their own stake."""
        return self.prize - self.stake


def terms(stake: int) -> Terms:
    pot = 2 * stake
    rake = rules.rake_of(pot)
    return Terms(stake, pot, rake, pot - rake)


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


# --- what a player may stake ------------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """A player's limits now: `cap`, a new account's highest stake (None once it is lifted), and the
    wallet's balance."""

    cap: int | None
    balance: int

    @property
    def games_needed(self) -> int:
        """Rounds against people that lift a new account's cap (with a day's age)."""
        return rules.new_player_limit()[1]

    @property
    def note(self) -> str:
        """A word under the stake field for a new account ("" for others)."""
        return f"(For now, at most {self.cap:,} coins: your account is new.)" if self.cap else ""

    def refusal(self, stake: int) -> str:
        """Why this player can't stake `stake` now, in the words of the action's refusal ("" if
        they can)."""
        if self.cap is not None and stake > self.cap:  # the lobby's note says until when
            return f"New accounts stake at most {self.cap:,} coins for now."
        if stake > self.balance:
            return f"You have {self.balance:,} coins."
        return ""


def limit_for(user_id: int) -> Limit:
    cap = rules.new_player_limit()[0]
    return Limit(cap if is_new_player(user_id) else None, balance_of(user_id))


@dataclass(frozen=True)
class TierChoice:
    tier: int
    terms: Terms
    refusal: str  # "" when the player may enter it


def tier_choices(limit: Limit | None) -> list[TierChoice]:
    """The quick-match tiers, each with why this player can't enter it (None: a visitor, no limits
    known; every tier is shown as open)."""
    return [
        TierChoice(tier, terms(tier), limit.refusal(tier) if limit else "")
        for tier in rules.stake_tiers()
    ]


def chosen_tier(choices: list[TierChoice], value: object) -> int | None:
    """The tier the form shows chosen: the one sent (a refused form keeps it) or offered first, if
    the player may enter it; else the first they may."""
    open_tiers = [choice.tier for choice in choices if not choice.refusal]
    asked = next((tier for tier in open_tiers if str(tier) == str(value)), None)
    return asked if asked is not None else (open_tiers[0] if open_tiers else None)


# --- a quick-match entry's waiting screen -------------------------------------------------------------


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
