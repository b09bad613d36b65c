"""The ledger's numbers, each a Django setting with its default here (override in settings or tests).

LUDOPAT_GRANT            coins every new account receives (1,000)
LUDOPAT_TOP_UP_TO        a daily top-up brings wallet + escrow back to this (100)
LUDOPAT_RAKE_BP          the house's cut of a pot in basis points (1,000 = 10%)
LUDOPAT_STAKE_MIN/MAX    a stake's bounds (10 to 10,000)
LUDOPAT_NEW_PLAYER_MAX   the highest stake for an account younger than a day or with fewer than
                         LUDOPAT_NEW_PLAYER_GAMES rounds against people it played itself (100; 5;
                         games.staking.rules.is_new_player)
LUDOPAT_STAKE_TIERS      quick match's stakes (50, 100, 250, 500, 1,000)
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def grant() -> int:
    return int(_setting("LUDOPAT_GRANT", 1000))


def top_up_to() -> int:
    return int(_setting("LUDOPAT_TOP_UP_TO", 100))


def rake_bp() -> int:
    return int(_setting("LUDOPAT_RAKE_BP", 1000))


def rake_percent() -> str:
    """The house's cut as the pages say it: "10", "2.5" (a percentage, without trailing zeros).

    >>> rake_percent()  # with the default 1,000 basis points
    '10'
    """
    whole, rest = divmod(rake_bp(), 100)
    return f"{whole}.{rest:02d}".rstrip("0") if rest else str(whole)


def stake_bounds() -> tuple[int, int]:
    return int(_setting("LUDOPAT_STAKE_MIN", 10)), int(_setting("LUDOPAT_STAKE_MAX", 10_000))


def new_player_limit() -> tuple[int, int]:
    """(highest stake, rounds against people needed to lift it) for new accounts."""
    return int(_setting("LUDOPAT_NEW_PLAYER_MAX", 100)), int(
        _setting("LUDOPAT_NEW_PLAYER_GAMES", 5)
    )


def stake_tiers() -> tuple[int, ...]:
    return tuple(_setting("LUDOPAT_STAKE_TIERS", (50, 100, 250, 500, 1000)))


def rake_of(pot: int) -> int:
    """The house's cut, rounded down (in the house's disfavour): the winner gets pot - rake.

    >>> rake_of(200)  # with the default 10%
    20
    >>> rake_of(19)
    1
    """
    return pot * rake_bp() // 10_000
