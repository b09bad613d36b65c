"""One rated round, pure: the players' skills before, in finishing order, to their skills after.

Kept apart from the database so the round-end writer, the replay and the benchmark compute ratings by
exactly the same function (and so the same floats: the ratings are a deterministic function of the
rated results in order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .scale import DEFAULT_MU, DEFAULT_SIGMA, model, shown


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu)


NEW_PLAYER = Skill()


def rate_places(before: Sequence[Skill]) -> list[Skill]:
    """The skills after a round of `before` (first place first): each player is a team of one, ranked
    by place (Ludo has no ties). Fewer than two players: nothing to learn, returned unchanged.

    >>> after = rate_places([NEW_PLAYER, NEW_PLAYER])
    >>> after[0].mu > 25 > after[1].mu, after[0].sigma < NEW_PLAYER.sigma
    (True, True)
    """
    if len(before) < 2:
        return list(before)
    plackett_luce = model()
    teams = [[plackett_luce.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    rated = plackett_luce.rate(teams, ranks=list(range(1, len(before) + 1)))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
