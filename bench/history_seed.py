"""The leaderboard bench's fill: a long history of finished rounds, written fast.

Through `leaderboard.results.write_rounds` (what `finish_round` uses) a round costs this machine about
15 ms of Python and PostgreSQL: a million rounds would take hours. `write_fast` works out the same rows
in one pass in memory (the same rules: points by place, the 5-a-day pair limit, voids, every standing a
counted result adds to, the players' numbered histories and place tallies) and sends each table with
PostgreSQL's COPY. `check` keeps it honest: it writes one small history both ways and compares every
table of the leaderboard app, row for row; the bench runs it before every fill, so a change to what
`write_rounds` writes (a new table, a new column) stops the bench until this module writes it too.
"""

from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from itertools import accumulate
from typing import Any

BATCH = 500  # rounds per write_rounds call in the reference writer
SPAN = timedelta(weeks=20)
HOWS = ["won"] * 14 + ["resign", "leave", "wipe", "agreed", "void", "idle"]
RULESETS = ["classic", "classic", "places", "duel", "twodice"]


def plan_rounds(rng: random.Random, users: list[Any], count: int) -> list[Any]:
    """`count` finished rounds over the last 20 weeks, oldest first, as `FinishedRound`s (round ids
    1, 2, ... in that order). The n-th busiest account plays in proportion to 1 / (n + 10): a few
    play a great deal, most rarely."""
    from django.utils import timezone

    from leaderboard.finished_rounds import FinishedRound, SeatFacts

    players = users[:]
    rng.shuffle(players)
    cumulative = list(accumulate(1 / (n + 10) for n in range(len(players))))
    now = timezone.now()
    span = SPAN.total_seconds()
    moments = sorted(now - timedelta(seconds=rng.random() * span) for _ in range(count))
    plans = []
    for round_id, when in enumerate(moments, start=1):
        ruleset = rng.choice(RULESETS)
        size = rng.choice([2, 3, 4]) if ruleset in ("classic", "places") else 2
        people = rng.choices(players, cum_weights=cumulative, k=size)
        while len(set(people)) < size:
            people = rng.choices(players, cum_weights=cumulative, k=size)
        computers = [rng.random() < 0.2 for _ in range(size)]
        if all(computers):
            computers[0] = False
        seats = [
            SeatFacts(i, None, f"Computer {i + 1}", True)
            if computer
            else SeatFacts(i, person.pk, person.username)
            for i, (person, computer) in enumerate(zip(people, computers, strict=True))
        ]
        places = list(range(size))
        rng.shuffle(places)
        plans.append(FinishedRound(round_id, ruleset, seats, places, rng.choice(HOWS), when))
    return plans


# --- the reference: write_rounds, as a site writes them ------------------------------------------------


def write_slowly(plans: list[Any]) -> None:
    from django.db import transaction

    from games.models import Game, Round
    from leaderboard.results import write_rounds

    for first in range(0, len(plans), BATCH):
        chunk = plans[first : first + BATCH]
        with transaction.atomic():
            games = Game.objects.bulk_create(
                [Game(mode=Game.Mode.FRIENDS, ruleset=p.ruleset, status="finished") for p in chunk]
            )
            kept = Round.objects.bulk_create([Round(game=g, number=1, places=[]) for g in games])
            for played, row in zip(chunk, kept, strict=True):
                played.round_id = row.pk
            write_rounds(chunk)


# --- the fast writer -------------------------------------------------------------------------------------


def write_fast(plans: list[Any], say: Any = print) -> None:
    """The rows write_rounds would write for `plans` (oldest first, round ids 1, 2, ...), by COPY, into
    tables with no rounds yet."""

    from games.models import Game, Round
    from leaderboard.models import PairDay, PlaceTally, PlayerHistory, Result, Standing

    if Round.objects.exists():
        raise SystemExit("the fast fill writes into tables without rounds")
    with without_indexes([Game, Round, Result, Standing, PairDay, PlaceTally, PlayerHistory]):
        _write_fast(plans, say)


def _write_fast(plans: list[Any], say: Any) -> None:
    from django.db import connection

    from games.core.round_ends import RANKED, UNRANKED
    from games.models import Game, Round, new_game_id, new_public_id
    from leaderboard.daily_limit import DAILY_PAIR_LIMIT, pairs_of
    from leaderboard.models import (
        ALL_RULESETS,
        PairDay,
        PlaceTally,
        PlayerHistory,
        Result,
        Standing,
    )
    from leaderboard.periods import period_starts, utc_day
    from leaderboard.points import points_for

    started = time.perf_counter()
    games = [new_game_id() for _ in plans]
    copy(Game, _rows(Game(mode=Game.Mode.FRIENDS, status="finished"), games, plans, "ruleset"))
    copy(Round, _round_rows(games, new_public_id))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('games_round', 'id'), %s)", [len(plans)]
        )
    say(f"  {len(plans):,} games and rounds in {time.perf_counter() - started:.0f} s")

    tallies: dict[tuple, int] = {}
    sums: dict[tuple, list] = {}
    places: defaultdict[tuple, int] = defaultdict(int)
    history: dict[int, list] = {}

    def results() -> Iterator[tuple]:
        for played in plans:
            day = utc_day(played.when)
            pairs = pairs_of(played) if played.how in RANKED else []
            for pair in pairs:
                tallies.setdefault((*pair, day), 0)
            full = [pair for pair in pairs if tallies[(*pair, day)] >= DAILY_PAIR_LIMIT]
            accounts = played.accounts
            allowed = {u for u in accounts.values() if not any(u in pair for pair in full)}
            for low, high in pairs:
                if low in allowed and high in allowed:
                    tallies[(low, high, day)] += 1
            counted = {i for i, user in accounts.items() if user in allowed}
            void = played.how in UNRANKED
            against_people = played.against_people
            seats = {s.index: s for s in played.seats}
            periods = period_starts(played.when)
            players = len(played.places)
            for place, index in enumerate(played.places, start=1):
                seat = seats[index]
                user = seat.user_id
                counts = not void and user is not None and index in counted
                points = points_for(place, players) if counts else 0
                number = None
                if user is not None:
                    mine = history.setdefault(user, [0, None])
                    mine[0] += 1
                    mine[1] = played.when
                    number = mine[0]
                if counts:
                    places[(user, played.ruleset, place)] += 1
                    boards = ["all", "people"] if against_people else ["all"]
                    for ruleset in (played.ruleset, ALL_RULESETS):
                        for board in boards:
                            for period, start in periods:
                                key = (user, ruleset, board, period, start)
                                total = sums.get(key)
                                if total is None:
                                    total = sums[key] = [0, 0, 0, 0, played.when, None]
                                total[0] += points
                                total[1] += 1
                                total[2] += place == 1
                                if points:
                                    total[5] = played.when
                yield (
                    played.round_id, index, user, seat.name[:150], seat.is_computer, place,
                    players, points, played.ruleset, against_people, 0, played.how, void, counts,
                    played.when, number,
                )  # fmt: skip

    result_fields = ["round_id", "seat_index", "user_id", "name", "is_computer", "place"]
    result_fields += ["players", "points", "ruleset", "against_people", "coins", "how", "void"]
    result_fields += ["counted", "finished_at", "number"]
    copy(Result, results(), result_fields)
    say(f"  results in {time.perf_counter() - started:.0f} s")
    copy(
        Standing,
        (
            (*key, points, games, wins, coins, reached or first)
            for key, (points, games, wins, coins, first, reached) in sums.items()
        ),
        [
            "user_id",
            "ruleset",
            "board",
            "period",
            "start",
            "points",
            "games",
            "wins",
            "coins",
            "reached_at",
        ],
    )
    say(f"  {len(sums):,} standings in {time.perf_counter() - started:.0f} s")
    copy(PairDay, ((*key, n) for key, n in tallies.items()), ["low_id", "high_id", "day", "rounds"])
    copy(
        PlaceTally, ((*k, n) for k, n in places.items()), ["user_id", "ruleset", "place", "rounds"]
    )
    copy(
        PlayerHistory,
        ((u, n, last) for u, (n, last) in history.items()),
        ["user", "rounds", "latest"],
    )


@contextmanager
def without_indexes(models: list[Any]) -> Iterator[None]:
    """Load the tables without their secondary indexes, unique constraints and foreign-key checks,
    then build them again (much faster than keeping them up to date row by row). The rows are
    checked: `check` compares them with what write_rounds writes, and the unique constraints are
    built again over them."""
    from django.db import connection

    tables = [m._meta.db_table for m in models]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE contype = 'u' AND conrelid::regclass::text = ANY(%s)",
            [tables],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename = ANY(%s) "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
            [tables],
        )
        indexes = cursor.fetchall()
        for table, name, _ in constraints:
            cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
        cursor.execute("SET session_replication_role = replica")  # no foreign-key triggers
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = DEFAULT")
            cursor.execute("SET maintenance_work_mem = '512MB'")
            for table, name, definition in constraints:
                cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')
            for _, definition in indexes:
                cursor.execute(definition)


def _rows(template: Any, ids: list[str], plans: list[Any], varying: str) -> Iterator[tuple]:
    """`template`'s column values, with each game's id and rule set."""
    from django.db import connection

    fields = template._meta.concrete_fields
    values = [f.get_db_prep_save(f.pre_save(template, add=True), connection) for f in fields]
    at = {f.attname: n for n, f in enumerate(fields)}
    for game_id, played in zip(ids, plans, strict=True):
        row = values[:]
        row[at["id"]] = game_id
        row[at[varying]] = played.ruleset
        yield tuple(row)


def _round_rows(games: list[str], public_id: Any) -> Iterator[tuple]:
    from django.db import connection

    from games.models import Round

    template = Round(game_id=games[0], number=1, places=[])
    fields = template._meta.concrete_fields
    values = [f.get_db_prep_save(f.pre_save(template, add=True), connection) for f in fields]
    at = {f.attname: n for n, f in enumerate(fields)}
    for round_id, game_id in enumerate(games, start=1):
        row = values[:]
        row[at["id"]], row[at["game_id"]], row[at["public_id"]] = round_id, game_id, public_id()
        yield tuple(row)


def copy(model: Any, rows: Iterable[tuple], fields: list[str] | None = None) -> None:
    """COPY `rows` into the model's table: `fields` (attribute or field names), or every column.
    The text is formatted here, a chunk at a time (psycopg's per-value adaptation is the slow part)."""
    from django.db import connection

    meta = model._meta
    names = fields or [f.attname for f in meta.concrete_fields]
    columns = [meta.get_field(n).column for n in names]
    quote = connection.ops.quote_name
    sql = f"COPY {quote(meta.db_table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as out:
        lines: list[str] = []
        for row in rows:
            lines.append("\t".join(map(_text, row)))
            if len(lines) == 20_000:
                out.write("\n".join(lines) + "\n")
                lines = []
        if lines:
            out.write("\n".join(lines) + "\n")


def _text(value: Any) -> str:
    """A value in COPY's text format."""
    if value is None:
        return "\\N"
    if value is True or value is False:
        return "t" if value else "f"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value.translate(ESCAPES)
    if hasattr(value, "obj"):  # psycopg's Jsonb, from a JSONField
        return json.dumps(value.obj).translate(ESCAPES)
    return value.isoformat()  # a date or an aware datetime


ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


# --- the check -------------------------------------------------------------------------------------------


def check(users: list[Any], count: int, seed: int) -> float:
    """Write `count` rounds both ways into the empty tables and compare every leaderboard table;
    leaves the tables empty again. Returns the seconds it took."""
    started = time.perf_counter()
    plans = plan_rounds(random.Random(seed), users, count)
    write_slowly(plans)
    slow = snapshot()
    empty_history()
    write_fast(plans, say=lambda _: None)  # the same rounds (write_slowly gave them ids 1, 2, ...)
    fast = snapshot()
    empty_history()
    for table, rows in slow.items():
        if rows != fast[table]:
            missing = sorted(set(rows) - set(fast[table]))[:3]
            extra = sorted(set(fast[table]) - set(rows))[:3]
            raise SystemExit(
                f"the fast fill differs from write_rounds in {table}: "
                f"{len(rows)} rows against {len(fast[table])}; e.g. missing {missing}, extra {extra}"
            )
    return time.perf_counter() - started


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every leaderboard table, without the ids the order of writing gives."""
    from django.apps import apps

    found = {}
    for model in apps.get_app_config("leaderboard").get_models():
        names = [f.attname for f in model._meta.concrete_fields if f.attname != "id"]
        found[model._meta.db_table] = sorted(
            tuple(_comparable(v) for v in row) for row in model.objects.values_list(*names)
        )
    return found


def _comparable(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def empty_history() -> None:
    """No games, rounds or leaderboard rows left (the accounts stay)."""
    from django.apps import apps
    from django.db import connection

    from games.models import Game, Round

    models = [Game, Round, *apps.get_app_config("leaderboard").get_models()]
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
