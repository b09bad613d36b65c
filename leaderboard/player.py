"""A player's page (/u/<username>/): rank and totals per rule set, recent rounds, charts.

Every part is an indexed read whose cost doesn't grow with the player's history: totals and the points
chart come from the `Standing` sums, recent rounds are one range of the player's numbered results (the
page count from their `PlayerHistory`, the opponents of that page in one more query), and the places
chart is their `PlaceTally` rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date
from typing import Any, overload

from django.core.paginator import Page, Paginator
from django.db.models import F

from accounts.models import User
from games.models import RULESET_NAMES

from .charts import places_table, points_by_period
from .models import ALL_RULESETS, Board, Period, PlaceTally, PlayerHistory, Result, Standing
from .outcomes import why_not_counted
from .ratings.player import player_ratings
from .standings import with_ranks

PER_PAGE = 20
RULESET_ORDER = [ALL_RULESETS, *RULESET_NAMES]
NAMES = {ALL_RULESETS: "All rule sets", **RULESET_NAMES}
BOARD_NAMES = dict(Board.choices)


def player_page(player: User, page_number: int | str | None) -> dict[str, Any]:
    return {
        "player": player,
        "totals": totals(player),
        "rounds": recent_rounds(player, page_number),
        "points_chart": points_by_period(weekly_points(player)),
        "places_chart": places_table(places_per_ruleset(player), NAMES),
        "ratings": player_ratings(player),
    }


def totals(player: User) -> dict[str, Any]:
    """All-time rank and sums: overall, then per rule set, on one board.

    The board is the leaderboard's default, against people, for a player who has played people;
    for one who has only played the computer, all games. Games against the computer, when they
    add to it, are one more line (`with_computer`), not a second table.
    """
    rows = list(Standing.objects.filter(user=player, period=Period.ALL))
    people = {s.ruleset: s for s in rows if s.board == Board.PEOPLE}
    everything = {s.ruleset: s for s in rows if s.board == Board.ALL}
    # Ranks only for the board shown: a rank counts the players ahead, the page's dearest read.
    board = Board.PEOPLE if people else Board.ALL
    ranked = with_ranks(Standing.objects.filter(user=player, period=Period.ALL, board=board))
    shown = {s.ruleset: s for s in ranked}
    order = {name: n for n, name in enumerate(RULESET_ORDER)}
    by_ruleset = [
        {"ruleset": NAMES.get(name, name), "rank": s.rank, "row": s}
        for name, s in sorted(shown.items(), key=lambda item: order.get(item[0], 99))
        if name != ALL_RULESETS
    ]
    overall = shown.get(ALL_RULESETS)
    mixed = everything.get(ALL_RULESETS)
    return {
        "board": BOARD_NAMES[board],
        "overall": {"rank": overall.rank, "row": overall} if overall else None,
        "by_ruleset": by_ruleset if len(by_ruleset) > 1 else [],
        "with_computer": mixed
        if people and mixed and overall and mixed.games > overall.games
        else None,
    }


def recent_rounds(player: User, page_number: int | str | None) -> Page[Result]:
    """One page of the player's rounds, newest first, each with its opponents (`.others`)."""
    page: Page[Result] = Paginator(NewestFirst(player), PER_PAGE).get_page(page_number)
    others: defaultdict[int, list[Result]] = defaultdict(list)
    ids = [r.round_id for r in page.object_list]
    for other in (
        Result.objects.filter(round_id__in=ids)
        .exclude(user=player)
        .select_related("user")
        .only(*OPPONENT_SHOWN)
        .order_by("place")
    ):
        others[other.round_id].append(other)
    for result in page.object_list:
        # Read by the template: attributes of this page's rows only.
        result.others = others[result.round_id]  # type: ignore[attr-defined]
        result.ruleset_name = NAMES.get(result.ruleset, result.ruleset)  # type: ignore[attr-defined]
        result.not_counted = why_not_counted(result, result.room_rated)  # type: ignore[attr-defined]
    return page


# Only what the page's table shows of the opponents and of each round: their full rows (the account's
# every column, the round's seeds and JSON lists) cost more to build than the rest of a row of the table.
OPPONENT_SHOWN = ("round_id", "user_id", "name", "place", "user__username")
ROUND_UNSHOWN = ("players", "places", "server_seed", "client_seed", "how", "created")


class NewestFirst:
    """A player's results, newest first, as the sequence a paginator slices: its length is their
    `PlayerHistory` count and a slice is a range of their numbers (the newest has the highest), so
    the last page costs what the first does."""

    def __init__(self, player: User) -> None:
        self.player = player
        history = PlayerHistory.objects.filter(user=player).values_list("rounds", flat=True)
        self.total = history.first() or 0

    def __len__(self) -> int:
        return self.total

    def __iter__(self) -> Iterator[Result]:
        return iter(self[0 : self.total])

    @overload
    def __getitem__(self, index: int, /) -> Result: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Result]: ...
    def __getitem__(self, index: int | slice, /) -> Result | list[Result]:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start, stop = index.start or 0, self.total if index.stop is None else index.stop
        newest, count = self.total - start, max(0, stop - start)
        # The `count` highest numbers from `newest` down, read backwards along the player's index:
        # with the LIMIT in the query the planner walks the index and joins each row's round by its
        # key; a range of numbers instead (1 to 20, say) looks to it like most of the table.
        # A tournament's match is marked, and an unrated room's round says so: columns of the round's
        # game, joined by its key.
        return list(
            Result.objects.filter(user=self.player, number__lte=newest)
            .annotate(
                in_tournament=F("round__game__in_tournament"), room_rated=F("round__game__rated")
            )
            .select_related("round")
            .defer(*(f"round__{name}" for name in ROUND_UNSHOWN))
            .order_by("-number")[:count]
        )


def weekly_points(player: User) -> list[tuple[date, int]]:
    """(week's Monday, points) for every week the player has a counted round in, oldest first."""
    return list(
        Standing.objects.filter(
            user=player, ruleset=ALL_RULESETS, board=Board.ALL, period=Period.WEEK
        )
        .order_by("start")
        .values_list("start", "points")
    )


def places_per_ruleset(player: User) -> dict[str, dict[int, int]]:
    """{rule set: {place: counted rounds}} of the player's rule sets with a counted round."""
    counts: dict[str, dict[int, int]] = defaultdict(dict)
    rows = PlaceTally.objects.filter(user=player, rounds__gt=0)
    for ruleset, place, rounds in rows.values_list("ruleset", "place", "rounds"):
        counts[ruleset][place] = rounds
    return dict(counts)
