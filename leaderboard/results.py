"""Results of finished rounds, written once, and the standings they add to (docs/rules.md).

`record_round` is a round-end handler (leaderboard/apps.py registers `record_ended_round`, see
games.core.round_end_handlers): `games.actions.rounds.finish_round` calls it in the transaction of the action
that ends a round, after the settlement of a staked game; `remove_round` takes a finished round out
again (a moderator's void of a result). It writes one `Result` per seat and adds the counted ones to the
`Standing` sums in the same transaction, so the leaderboard never replays history. `write_rounds` is the one writer: it takes
a batch of rounds so the backfill and the benchmark write through exactly the same code.

What counts (issue 11): only accounts are ranked, computers take places; pass & play never counts;
"agreed", "idle" and "void" rounds count for nobody; between the same two accounts at most 5 rounds a
UTC day count. The results that count on the "against people" board also move their players' ratings
(leaderboard.ratings.update), in the same transaction.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import combinations, pairwise
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Field, ForeignObjectRel, Model
from django.utils import timezone

from games.core.public_rounds import keep_round
from games.core.round_end_handlers import EndedRound
from games.core.round_ends import RANKED, UNRANKED, RoundEnd
from games.models import Game, Round, Seat
from ludopat.recent_writes import note_round_for

from .models import (
    ALL_RULESETS,
    Board,
    PairDay,
    Period,
    PlaceTally,
    PlayerHistory,
    Result,
    Standing,
)
from .points import points_for
from .ratings.replay import request_replay
from .ratings.update import lock_ratings, rate_round

DAILY_PAIR_LIMIT = 5
ALL_TIME_START = date(2000, 1, 1)  # the `start` of every all-time Standing row
UPSERT_PARAMETERS = 9000  # per INSERT: under SQLite's limit of variables (and PostgreSQL's)


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
        return self.how in RANKED and self.against_people and len(self.places) >= 2


def record_ended_round(ended: EndedRound) -> None:
    """The leaderboard's round-end handler: the round's results, with the coins its settlement paid."""
    record_round(ended.game, ended.seats, ended.places, ended.how, ended.coins)


def record_round(
    game: Game,
    seats: list[Seat],
    places: list[int],
    how: RoundEnd,
    coins: dict[int, int] | None = None,
) -> Round | None:
    """Write the results of the game's round that just ended; returns the kept `Round` (with its public
    replay id), or None for a room closed before it started."""
    if how not in RANKED | UNRANKED:
        raise ValueError(f"unknown way for a round to end: {how}")
    if how == RoundEnd.CANCEL:
        return None
    kept = keep_round(game, seats, places, how=how)
    # Its players read the primary until the read replica has this round (ludopat/recent_writes.py).
    note_round_for(user_ids=[s.user_id for s in seats if s.user_id is not None])
    if game.mode == Game.Mode.LOCAL or not places:
        return kept  # pass & play never counts; a round without places has nobody to score
    facts = [
        SeatFacts(s.index, s.user_id, s.display_name, s.kind == Seat.Kind.COMPUTER)
        for s in seats
        if s.index in places
    ]
    played = FinishedRound(
        kept.pk, game.ruleset, facts, list(places), how, timezone.now(), dict(coins or {})
    )
    record_played(played)
    return kept


def record_played(played: FinishedRound) -> list[Result]:
    """Write one round that just ended: its results, the standings and the ratings it moves."""
    # The rating rows first: the results written after them are the order ratings are replayed in.
    ratings = lock_ratings(played.accounts.values(), played.ruleset) if played.rateable else {}
    rows = write_rounds([played])
    if ratings:
        rate_round(rows, ratings)
    return rows


def write_rounds(
    rounds: list[FinishedRound], tables: tuple[type[Any], ...] | None = None
) -> list[Result]:
    """Write the results of `rounds` (oldest first) and add them to the standings.

    `tables` = (Result, Standing, PairDay) lets the data migration pass its historical models (so Any);
    those predate the players' histories, so their results are written unnumbered and without place
    tallies (the migration that added them numbers and tallies whatever results exist).

    Locks, after the pair tallies: the players' `PlayerHistory` rows (ascending user id), then their
    `PlaceTally` rows, then the standings, each in key order (`remove_round` takes the same order).
    """
    result_model, standing_model, pair_model = tables or (Result, Standing, PairDay)
    with_history = tables is None
    rounds = sorted(rounds, key=lambda r: r.when)
    counted = _apply_daily_limit(rounds, pair_model)
    rows: list[Result] = []
    for n, played in enumerate(rounds):
        void = played.how in UNRANKED
        seats = {s.index: s for s in played.seats}
        for place, index in enumerate(played.places, start=1):
            seat = seats[index]
            counts = not void and seat.user_id is not None and index in counted[n]
            rows.append(
                result_model(
                    round_id=played.round_id,
                    seat_index=index,
                    user_id=seat.user_id,
                    name=seat.name[:150],
                    is_computer=seat.is_computer,
                    place=place,
                    players=len(played.places),
                    points=points_for(place, len(played.places)) if counts else 0,
                    ruleset=played.ruleset,
                    against_people=played.against_people,
                    coins=played.coins.get(index, 0),
                    how=played.how,
                    void=void,
                    counted=counts,
                    finished_at=played.when,
                )
            )
    late = _number_results(rows) if with_history else set()
    result_model.objects.bulk_create(rows)
    if late:
        renumber_results(result_model, sorted(late))
    if with_history:
        _add_to_place_tallies([r for r in rows if r.counted])
    _add_to_standings([r for r in rows if r.counted], standing_model)
    return rows


# --- the players' histories --------------------------------------------------------------------------


def _number_results(rows: list[Result]) -> set[int]:
    """Number each account's new results after its last one and add them to its `PlayerHistory`
    (whose row, locked first, makes the account's writers take turns). Returns the accounts whose
    numbering must be worked out again: a result that finished before one already written (a
    backfill of old rounds, or two of the account's rounds ending in the same instant and written
    in the other order), or two at the same moment, which number by insertion order."""
    mine: defaultdict[int, list[Result]] = defaultdict(list)
    for row in rows:  # oldest first: the rounds are sorted
        if row.user_id is not None:
            mine[row.user_id].append(row)
    if not mine:
        return set()
    users = sorted(mine)
    # Create the missing rows and lock them all (an upsert that changes nothing still locks its row).
    _upsert(
        PlayerHistory,
        ["user_id"],
        ["rounds"],
        [(u, 0) for u in users],
        "{rounds} = {table}.{rounds}",
    )
    known = {
        user: (rounds, latest)
        for user, rounds, latest in PlayerHistory.objects.filter(user_id__in=users).values_list(
            "user_id", "rounds", "latest"
        )
    }
    late = set()
    updated = []
    for user in users:
        rounds, latest = known[user]
        whens = [row.finished_at for row in mine[user]]
        in_order = all(a < b for a, b in pairwise(whens))
        if not in_order or (latest is not None and whens[0] <= latest):
            late.add(user)
        for n, row in enumerate(mine[user], start=rounds + 1):
            row.number = n  # provisional for a late account: renumber_results decides
        newest = max(whens) if latest is None else max(latest, *whens)
        updated.append((user, rounds + len(whens), newest))
    _upsert(
        PlayerHistory,
        ["user_id"],
        ["rounds", "latest"],
        updated,
        "{rounds} = excluded.{rounds}, {latest} = excluded.{latest}",
    )
    return late


def renumber_results(result_model: type[Model], user_ids: list[int] | None = None) -> None:
    """Number the accounts' results (all accounts' if `user_ids` is None) 1, 2, ... in finish order,
    of two at the same moment the later written first, so the newest first is the highest number
    (the player page's order: newest, then the earlier written). The rare path of `write_rounds`
    (it touches the account's whole history) and the migration that added the numbers."""
    connection = connections[router.db_for_write(result_model)]
    quote = connection.ops.quote_name
    table = quote(result_model._meta.db_table)
    which, params = "", []
    if user_ids is not None:
        which = f" AND {quote('user_id')} IN ({', '.join(['%s'] * len(user_ids))})"
        params = list(user_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {quote('number')} = numbered.n FROM ("  # noqa: S608  quoted names only; ids are parameters
            f"SELECT {quote('id')} AS id, ROW_NUMBER() OVER (PARTITION BY {quote('user_id')} "
            f"ORDER BY {quote('finished_at')}, {quote('id')} DESC) AS n FROM {table} "
            f"WHERE {quote('user_id')} IS NOT NULL{which}) AS numbered "
            f"WHERE {table}.{quote('id')} = numbered.id",
            params,
        )


def _add_to_place_tallies(rows: list[Result]) -> None:
    """Add counted results to their accounts' `PlaceTally` rows, in key order."""
    added: defaultdict[tuple[int, str, int], int] = defaultdict(int)
    for row in rows:
        if row.user_id is not None:
            added[(row.user_id, row.ruleset, row.place)] += 1
    _upsert(
        PlaceTally,
        ["user_id", "ruleset", "place"],
        ["rounds"],
        [(*key, n) for key, n in sorted(added.items())],
        "{rounds} = {table}.{rounds} + excluded.{rounds}",
    )


# --- taking a round out ------------------------------------------------------------------------------


def remove_round(round_id: int) -> list[Result]:
    """Take a finished round out of the standings, as if it had never counted: its results become void,
    the pair's 5-a-day allowance it used comes back (for rounds not played yet: a round already capped
    stays uncounted), the sums it added are taken away, a standing row left with no game goes, and the
    tie-break time is the one the remaining rounds give. Returns the results that stopped counting.

    Locks in the writer's order: the round's results, then the pair tallies, then the place tallies
    and the standing rows in key order, so a void and a round ending at the same time never deadlock.
    The round's results stay in their players' histories (as void), so their numbers stay. A round
    that moved ratings has its rule set's ratings replayed from it on, after commit
    (leaderboard.ratings.replay)."""
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
    last round that scored, else their first round (as `_add_to_standings` sets it)."""
    rows = Result.objects.filter(user_id=user_id, counted=True)
    if ruleset != ALL_RULESETS:
        rows = rows.filter(ruleset=ruleset)
    if board == Board.PEOPLE:
        rows = rows.filter(against_people=True)
    if period != Period.ALL:
        end = start + timedelta(days=7) if period == Period.WEEK else _next_month(start)
        rows = rows.filter(finished_at__gte=_midnight(start), finished_at__lt=_midnight(end))
    scored = rows.filter(points__gt=0).order_by("-finished_at").first()
    if scored is not None:
        return scored.finished_at
    first = rows.order_by("finished_at").first()
    return first.finished_at if first is not None else None


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _next_month(day: date) -> date:
    return (day.replace(day=28) + timedelta(days=4)).replace(day=1)


# --- the 5-a-day rule --------------------------------------------------------------------------------


def _apply_daily_limit(rounds: list[FinishedRound], pair_model: type[Model]) -> list[set[int]]:
    """For each round, the seat indexes whose account may still score: a round counts for an account
    unless it already played 5 counted rounds that UTC day with another account at the table."""
    wanted = sorted(
        {
            (low, high, utc_day(played.when))
            for played in rounds
            if played.how in RANKED
            for low, high in _pairs(played)
        }
    )
    # Create the missing tallies and lock them all (an upsert that changes nothing still locks its
    # row), reading the counts in the same statement.
    found = _upsert(
        pair_model,
        ["low_id", "high_id", "day"],
        ["rounds"],
        [(*key, 0) for key in wanted],
        "{rounds} = {table}.{rounds}",
        returning=["low_id", "high_id", "day", "rounds"],
    )
    tallies = {(low, high, _as_date(day)): n for low, high, day, n in found}
    out = []
    added: dict[tuple, int] = defaultdict(int)
    for played in rounds:
        day = utc_day(played.when)
        pairs = _pairs(played) if played.how in RANKED else []
        full = [pair for pair in pairs if tallies[(*pair, day)] >= DAILY_PAIR_LIMIT]
        allowed = {
            user for user in played.accounts.values() if not any(user in pair for pair in full)
        }
        for low, high in pairs:
            if low in allowed and high in allowed:
                tallies[(low, high, day)] += 1
                added[(low, high, day)] += 1
        out.append({i for i, user in played.accounts.items() if user in allowed})
    _upsert(
        pair_model,
        ["low_id", "high_id", "day"],
        ["rounds"],
        [(*key, n) for key, n in sorted(added.items())],
        "{rounds} = {table}.{rounds} + excluded.{rounds}",
    )
    return out


def _as_date(value: str | date) -> date:
    return date.fromisoformat(value) if isinstance(value, str) else value


def _pairs(played: FinishedRound) -> list[tuple[int, int]]:
    users = sorted(set(played.accounts.values()))
    return list(combinations(users, 2))


# --- standings ---------------------------------------------------------------------------------------


def utc_day(when: datetime) -> date:
    return when.astimezone(UTC).date() if timezone.is_aware(when) else when.date()


def period_starts(when: datetime) -> list[tuple[str, date]]:
    """The (period, first day) of each window a moment belongs to, in UTC."""
    day = utc_day(when)
    return [
        (Period.WEEK, day - timedelta(days=day.weekday())),
        (Period.MONTH, day.replace(day=1)),
        (Period.ALL, ALL_TIME_START),
    ]


def standing_keys(row: Result) -> list[tuple[int | None, str, str, str, date]]:
    """Every Standing a counted result adds to: its rule set and all rule sets, on the all-games board
    (and the against-people one), in its week, month and all time."""
    boards = [Board.ALL, Board.PEOPLE] if row.against_people else [Board.ALL]
    return [
        (row.user_id, ruleset, board, period, start)
        for ruleset in (row.ruleset, ALL_RULESETS)
        for board in boards
        for period, start in period_starts(row.finished_at)
    ]


def _add_to_standings(rows: list[Result], standing_model: type[Model]) -> None:
    """Add counted results to their Standing rows: one INSERT ... ON CONFLICT DO UPDATE per chunk
    that adds to the sums in the database (rows in key order, so concurrent rounds lock in one order
    and never deadlock; no read-modify-write, so nothing is lost between two transactions)."""
    if not rows:
        return
    sums: dict[tuple, list] = defaultdict(lambda: [0, 0, 0, 0, None, None])
    for row in rows:
        for key in standing_keys(row):
            total = sums[key]
            total[0] += row.points
            total[1] += 1
            total[2] += row.place == 1
            total[3] += row.coins
            total[4] = total[4] or row.finished_at  # first seen
            if row.points:
                total[5] = row.finished_at  # reached a new score
    values = [
        (*key, points, games, wins, coins, reached or first)
        for key, (points, games, wins, coins, first, reached) in sorted(sums.items())
    ]
    _upsert(
        standing_model,
        ["user_id", "ruleset", "board", "period", "start"],
        ["points", "games", "wins", "coins", "reached_at"],
        values,
        "{points} = {table}.{points} + excluded.{points}, "
        "{games} = {table}.{games} + excluded.{games}, "
        "{wins} = {table}.{wins} + excluded.{wins}, "
        "{coins} = {table}.{coins} + excluded.{coins}, "
        "{reached_at} = CASE WHEN excluded.{points} > 0 THEN excluded.{reached_at} "
        "ELSE {table}.{reached_at} END",
    )


def _upsert(
    model: type[Model],
    keys: list[str],
    fields: list[str],
    rows: Sequence[tuple[Any, ...]],
    update: str,
    returning: list[str] | None = None,
) -> list[tuple[Any, ...]]:
    """INSERT `rows` (tuples: `keys` then `fields`) ... ON CONFLICT (keys) DO UPDATE SET `update`
    (column names in braces), in chunks; the RETURNING rows if `returning` names columns. Rows go in
    key order, so two transactions lock shared rows in the same order and never deadlock; the sums
    are added in the database, so nothing is lost between two transactions."""
    if not rows:
        return []
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    columns = [*keys, *fields]
    names = {c: quote(c) for c in columns} | {"table": quote(model._meta.db_table)}
    adapt = [_adapter(model._meta.get_field(c), connection) for c in columns]
    head = f"INSERT INTO {names['table']} ({', '.join(quote(c) for c in columns)}) VALUES "  # noqa: S608  quoted names and the callers' constant `update` only; values are parameters
    tail = f" ON CONFLICT ({', '.join(quote(k) for k in keys)}) DO UPDATE SET "
    tail += update.format(**names)
    if returning:
        tail += " RETURNING " + ", ".join(quote(c) for c in returning)
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    chunk_rows = UPSERT_PARAMETERS // len(columns)
    found = []
    with connection.cursor() as cursor:
        for first in range(0, len(rows), chunk_rows):
            chunk = rows[first : first + chunk_rows]
            params = [f(v) for row in chunk for f, v in zip(adapt, row, strict=True)]
            cursor.execute(head + ", ".join([one] * len(chunk)) + tail, params)
            if returning:
                found += cursor.fetchall()
    return found


def _adapter(
    field: Field[Any, Any] | ForeignObjectRel, connection: BaseDatabaseWrapper
) -> Callable[[Any], Any]:
    """How a value goes to the database: only dates and times need converting."""
    kind = field.get_internal_type()
    if kind == "DateTimeField":
        return connection.ops.adapt_datetimefield_value
    if kind == "DateField":
        return connection.ops.adapt_datefield_value
    return lambda value: value
