"""Taking a finished round out of the standings (a moderator's void of a result), as if it had never
counted; its results stay in their players' histories, as void."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from itertools import combinations

from django.db.models import F

from .models import ALL_RULESETS, Board, PairDay, Period, PlaceTally, Result, Standing
from .periods import midnight, next_month, utc_day
from .ratings.rating_replay import request_replay
from .standing_sums import standing_keys


def remove_round(round_id: int) -> list[Result]:
    """Take a finished round out of the standings, as if it had never counted: its results become void,
    the pair's 5-a-day allowance it used comes back (for rounds not played yet: a round already capped
    stays uncounted), the sums it added are taken away, a standing row left with no game goes, and the
    tie-break time is the one the remaining rounds give. Returns the results that stopped counting.

    Locks in the writer's order: the round's results, then the pair tallies, then the place tallies
    and the standing rows in key order, so a void and a round ending at the same time never deadlock.
    The round's results stay in their players' histories (as void), so their numbers stay. A round
    that moved ratings has its rule set's ratings replayed from it on, after commit
    (leaderboard.ratings.rating_replay)."""
    rows = list(Result.objects.select_for_update().filter(round_id=round_id).order_by("pk"))
    counted = [row for row in rows if row.counted]
    Result.objects.filter(pk__in=[row.pk for row in rows]).update(void=True, counted=False)
    if any(row.rating_mu is not None for row in rows):
        # Every later round of the rule set is rated again without it, in a task (it may be long).
        request_replay(rows[0].ruleset, rows[0].pk)
    if not counted:
        return []
    when = counted[0].finished_at
    users = sorted({row.user_id for row in counted if row.user_id is not None})
    for low, high in combinations(users, 2):  # the pairs this round counted for
        PairDay.objects.filter(low_id=low, high_id=high, day=utc_day(when), rounds__gt=0).update(
            rounds=F("rounds") - 1
        )
    places: defaultdict[tuple[int, str, int], int] = defaultdict(int)
    for row in counted:
        if row.user_id is not None:
            places[(row.user_id, row.ruleset, row.place)] += 1
    for (owner, ruleset_played, place), n in sorted(places.items()):
        PlaceTally.objects.filter(user_id=owner, ruleset=ruleset_played, place=place).update(
            rounds=F("rounds") - n
        )
    taken: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row in counted:
        for key in standing_keys(row):
            total = taken[key]
            total[0] += row.points
            total[1] += 1
            total[2] += row.place == 1
            total[3] += row.coins
    for key, (points, games, wins, coins) in sorted(taken.items()):
        user_id, ruleset, board, period, start = key
        if user_id is None:  # counted results are accounts'
            continue
        standing = (
            Standing.objects.select_for_update()
            .filter(user_id=user_id, ruleset=ruleset, board=board, period=period, start=start)
            .first()
        )
        if standing is None:
            continue
        if standing.games <= games:
            standing.delete()
            continue
        standing.points -= points
        standing.games -= games
        standing.wins -= wins
        standing.coins -= coins
        standing.reached_at = (
            _reached_at(user_id, ruleset, board, period, start) or standing.reached_at
        )
        standing.save(update_fields=["points", "games", "wins", "coins", "reached_at"])
    return counted


def _reached_at(
    user_id: int, ruleset: str, board: str, period: str, start: date
) -> datetime | None:
    """When the player reached the standing's points, from the results still counted in it: their
    last round that scored, else their first round (as `add_to_standings` sets it)."""
    rows = Result.objects.filter(user_id=user_id, counted=True)
    if ruleset != ALL_RULESETS:
        rows = rows.filter(ruleset=ruleset)
    if board == Board.PEOPLE:
        rows = rows.filter(against_people=True)
    if period != Period.ALL:
        end = start + timedelta(days=7) if period == Period.WEEK else next_month(start)
        rows = rows.filter(finished_at__gte=midnight(start), finished_at__lt=midnight(end))
    scored = rows.filter(points__gt=0).order_by("-finished_at").first()
    if scored is not None:
        return scored.finished_at
    first = rows.order_by("finished_at").first()
    return first.finished_at if first is not None else None
