"""What the results' writer knows of a finished round: its seats, their places, how it ended, its coins.

`leaderboard.results` builds one from a round that just ended; the backfill, the benchmark and the
data migration build them from stored rows, so every path writes through the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from games.core.round_ends import RANKED


@dataclass(frozen=True)
class SeatFacts:
    index: int
    user_id: int | None  # an account, or None for a computer or a guest
    name: str
    is_computer: bool = False


@dataclass
class FinishedRound:
    """What the writer needs to know about one finished round."""

    round_id: int
    ruleset: str
    seats: list[SeatFacts]
    places: list[int]  # seat indexes, first place first
    how: str  # a RoundEnd's value (the backfill and the data migration pass the stored string)
    when: datetime
    coins: dict[int, int] = field(default_factory=dict)
    # False for a room its players chose to play unrated (Game.rated, a challenge's choice): its
    # results are written, counted on no board, and move no rating.
    rated: bool = True

    @property
    def accounts(self) -> dict[int, int]:
        """{seat index: user id} of the seats held by accounts."""
        return {s.index: s.user_id for s in self.seats if s.user_id and s.index in self.places}

    @property
    def against_people(self) -> bool:
        users = list(self.accounts.values())
        return len(users) == len(self.places) and len(set(users)) == len(users)

    @property
    def rateable(self) -> bool:
        """Whether the round can move ratings (the 5-a-day rule may still leave it unrated)."""
        return self.rated and self.how in RANKED and self.against_people and len(self.places) >= 2
