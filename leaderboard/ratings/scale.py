"""The rating model and the number players see (docs/ratings.md).

Weng-Lin's Plackett-Luce model (the `openskill` package, its defaults: mu 25, sigma 25/3) rates a
free-for-all of 2, 3 or 4 players from their order. A player sees mu on a chess-like scale, and is
provisional while sigma is above `PROVISIONAL_SIGMA`; the conservative mu - 3 sigma is not shown, since
it rises with games played even at a 50% score.
"""

from __future__ import annotations

from functools import cache

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
SHOWN_BASE = 1500
SHOWN_PER_MU = 60
# About 12 one-on-one rounds (fewer at tables of 3 or 4) bring sigma from 8.33 under 6: shown, that is
# an uncertainty of +-360 around the number.
PROVISIONAL_SIGMA = 6.0


@cache
def model() -> PlackettLuce:
    """The one model every rating is computed with (its defaults; no randomness, so deterministic)."""
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def shown(mu: float) -> int:
    """The number shown for a skill mu.

    >>> shown(25.0), shown(27.5), shown(20.0)
    (1500, 1650, 1200)
    """
    return round(SHOWN_BASE + SHOWN_PER_MU * (mu - DEFAULT_MU))


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


DEFAULT_SHOWN = shown(DEFAULT_MU)
