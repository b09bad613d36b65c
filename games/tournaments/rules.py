"""What a tournament may be: its sizes, buy-ins (the quick-match stake tiers), the prize split of each
size, and the countdown between filling up and the first matches.

The prize split is in basis points of the pot after the house's cut, one share per place (3rd and 4th
share a place, and so on); each share is rounded down and what rounding leaves goes to 1st.

>>> prizes(4, 1000)
[700, 300]
>>> prizes(8, 999)
[502, 249, 124, 124]
"""

from __future__ import annotations

from django.conf import settings

from accounts.ledger import rules as ledger_rules

from ..actions.clock import timer_choices
from ..core.errors import GameError

SIZES = (4, 8, 16)
SPLITS: dict[int, tuple[int, ...]] = {
    4: (7000, 3000),
    8: (5000, 2500, 1250, 1250),
    16: (4000, 2000, 1000, 1000, 500, 500, 500, 500),
}
DEFAULT_TIMER = 15


def prizes(size: int, net: int) -> list[int]:
    """Each paid place's coins out of `net` (the pot less the cut), 1st first: shares rounded down,
    the remainder to 1st."""
    shares = [net * bp // 10_000 for bp in SPLITS[size]]
    shares[0] += net - sum(shares)
    return shares


def split_percentages(size: int) -> list[str]:
    """The split as the pages say it: ["50", "25", "12.5", "12.5"]."""
    return [f"{bp / 100:g}" for bp in SPLITS[size]]


def place_names(size: int) -> list[str]:
    """The paid places' names, 1st first: "1st", "2nd", "3rd-4th"... one per share."""
    names = ["1st", "2nd"]
    low = 3
    while len(names) < len(SPLITS[size]):
        high = low * 2 - 2
        names += [f"{low}th-{high}th".replace("3th", "3rd")] * (high - low + 1)
        low = high + 1
    return names


def place_after_losing(size: int, round_: int) -> int:
    """The place a player losing in `round_` (1 = the first round) shares: 2 in the final, 3 in the
    semi-finals, 5 in the quarter-finals, 9 in the round of 16."""
    rounds = size.bit_length() - 1
    return 2 ** (rounds - round_) + 1


def buy_ins() -> tuple[int, ...]:
    return ledger_rules.stake_tiers()


def parse_size(raw: object) -> int:
    size = int(raw) if isinstance(raw, int | str) and str(raw).isdigit() else None
    if size not in SIZES:
        raise GameError("A tournament is for 4, 8 or 16 players.")
    return size


def parse_buy_in(raw: object) -> int:
    buy_in = int(raw) if isinstance(raw, int | str) and str(raw).isdigit() else None
    if buy_in not in buy_ins():
        tiers = ", ".join(f"{tier:,}" for tier in buy_ins())
        raise GameError(f"A tournament's buy-in is one of {tiers} coins.")
    return buy_in


def parse_timer(raw: object) -> int:
    seconds = int(raw) if isinstance(raw, int | str) and str(raw).isdigit() else None
    if seconds not in [choice for choice in timer_choices() if choice]:
        raise GameError("A match's timer is 10, 15 or 30 seconds per action.")
    return seconds


def start_delay() -> float:
    """Seconds between a sit-and-go filling up and its start (the "starting in 10 s" notice)."""
    return float(getattr(settings, "LUDOPAT_TOURNAMENT_START_DELAY", 10.0))


def stalled_minutes() -> int:
    """A bracket in play with no action in any match for this long is flagged in the admin."""
    return int(getattr(settings, "LUDOPAT_TOURNAMENT_STALLED_MINUTES", 10))
