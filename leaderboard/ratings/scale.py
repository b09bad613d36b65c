"""The rating model and the number players see (docs/ratings.md).

Weng-Lin's Plackett-Luce model (the `openskill` package, its defaults: mu 25, sigma 25/3) rates a
free-for-all of 2, 3 or 4 players from their order. A player sees mu on a chess-like scale, and is
provisional while sigma is above `PROVISIONAL_SIGMA`; the conservative mu - 3 sigma is not shown, since
it rises with games played even at a 50% score.
"""

from __future__ import annotations

import math
from functools import cache

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
SHOWN_BASE = 1500
SHOWN_PER_MU = 60
# Shown, sigma 6 is an uncertainty of +-360 around the number. How many rounds bring a newcomer's 8.33
# under it depends on the tables: 7 one-on-one against settled players, 14 against newcomers, 23 at
# tables of four newcomers (docs/ratings.md), so the pages show the uncertainty, not a count of rounds.
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


def spread(sigma: float) -> int:
    """The uncertainty of the number shown, as the pages write it (± that many points): rounded up,
    so a provisional rating never reads as settled's ±360.

    >>> spread(DEFAULT_SIGMA), spread(PROVISIONAL_SIGMA), spread(6.001)
    (500, 360, 361)
    """
    return math.ceil(round(SHOWN_PER_MU * sigma, 6))


DEFAULT_SHOWN = shown(DEFAULT_MU)
SETTLED_SPREAD = spread(PROVISIONAL_SIGMA)  # a rating is settled at or under this: 360
