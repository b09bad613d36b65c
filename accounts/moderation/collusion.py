"""Collusion flags: pairs of accounts a moderator should look at.

A pair is flagged when, in their rounds against each other (two players, both accounts, not void), one
of them won RUN_LIMIT or more in a row (coins or points flowing one way), or when the two logged in from
the same address and have played each other. A flag is a lead for a person to look into, not a verdict.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Count

from accounts.users.addresses import LoginAddress
from leaderboard.models import Result

RUN_LIMIT = 5


@dataclass
class Flag:
    low: object  # the two accounts (User), lower id first
    high: object
    rounds: int = 0
    longest_run: int = 0
    run_winner: object = None
    coins_to_winner: int = (
        0  # net coins the run's winner won from the other (before the house's cut)
    )
    shared_addresses: list[str] = field(default_factory=list)

    @property
    def reasons(self) -> list[str]:
        out = []
        if self.longest_run >= RUN_LIMIT:
            out.append(f"{self.run_winner} won {self.longest_run} in a row")
        if self.shared_addresses:
            out.append(f"same address ({', '.join(self.shared_addresses)})")
        return out


def longest_run(winners: list[int]) -> tuple[int, int | None]:
    """(length, winner) of the longest run of one winner in a sequence of winners.

    >>> longest_run([1, 2, 2, 2, 1])
    (3, 2)
    """
    best, best_winner, run, last = 0, None, 0, None
    for winner in winners:
        run = run + 1 if winner == last else 1
        last = winner
        if run > best:
            best, best_winner = run, winner
    return best, best_winner


def _head_to_head() -> dict[tuple[int, int], list[tuple[int, int]]]:
    """{(low id, high id): [(winner id, winner's coins), ...] oldest first} of two-account rounds."""
    rows = (
        Result.objects.filter(players=2, user__isnull=False, void=False)
        .order_by("finished_at", "round_id", "seat_index")
        .values_list("round_id", "user_id", "place", "coins")
    )
    seats: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for round_id, user_id, place, coins in rows:
        seats[round_id].append((user_id, place, coins))
    pairs: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for both in seats.values():  # dicts keep insertion order: rounds stay oldest first
        if len(both) != 2 or both[0][0] == both[1][0]:
            continue
        winner = min(both, key=lambda seat: seat[1])
        low, high = sorted((both[0][0], both[1][0]))
        pairs[(low, high)].append((winner[0], winner[2]))
    return pairs


def _shared_addresses(
    pairs: dict[tuple[int, int], list[tuple[int, int]]],
) -> dict[tuple[int, int], list[str]]:
    shared = (
        LoginAddress.objects.values("address")
        .annotate(accounts=Count("user", distinct=True))
        .filter(accounts__gt=1)
        .values_list("address", flat=True)
    )
    users_at: dict[str, set[int]] = defaultdict(set)
    for address, user_id in LoginAddress.objects.filter(address__in=list(shared)).values_list(
        "address", "user_id"
    ):
        users_at[address].add(user_id)
    found: dict[tuple[int, int], list[str]] = defaultdict(list)
    for address, users in users_at.items():
        for pair in pairs:
            if set(pair) <= users:
                found[pair].append(address)
    return found


def flags() -> list[Flag]:
    """Every flagged pair, the longest runs first."""
    pairs = _head_to_head()
    addresses = _shared_addresses(pairs)
    flagged = []
    for pair, games in pairs.items():
        run, winner = longest_run([w for w, _ in games])
        if run < RUN_LIMIT and not addresses.get(pair):
            continue
        flagged.append((pair, games, run, winner))
    users = get_user_model().objects.in_bulk({u for pair, *_ in flagged for u in pair})
    out = []
    for (low, high), games, run, winner in flagged:
        out.append(
            Flag(
                low=users[low],
                high=users[high],
                rounds=len(games),
                longest_run=run,
                run_winner=users.get(winner),
                coins_to_winner=sum(c for w, c in games if w == winner)
                - sum(c for w, c in games if w != winner),
                shared_addresses=sorted(addresses.get((low, high), [])),
            )
        )
    return sorted(out, key=lambda f: (-f.longest_run, -f.rounds))
