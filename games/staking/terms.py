"""A staked game's money in one place: each stake, the pot, the house's cut and what the winner takes,
so the lobby, the waiting screen, the game's header and its result say the same."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.ledger import rules


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
