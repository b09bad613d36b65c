"""Play now: a press puts the player on the waiting list of one kind of table (kinds.py), and seats
whoever can be seated of that kind at once (`seat_waiting`); the sweeper does the same every couple of
seconds as ranges widen and computers become due (sweeper.py). Stopping takes the player off the list.

A table is a timed friends room with `public` set, no host, seated by the list and started at once;
computers take the empty seats of a table whose players asked for them, and such a table is unrated
(`Game.rated`; with a computer at it the round is not against people either, so it moves no rating and
credits no "against people" points). Who may sit together: seating.py's ranges, no block between any
two of them (accounts.social), never two accounts seen in one browser (accounts.users.browsers).

One commitment of this kind at a time: a player waits for one table, and not while they are seated in
a live game between people (a public table, a staked or tournament game, a timed friends room: the
computer plays their seat there while they are away), so Play now never seats anyone in two live
games; an entry whose player started such a game elsewhere meanwhile is stopped when it is next
looked at for a table.

One press, or one sweep's pass, per kind at a time (`queue_lock`, a transaction's advisory lock taken
before any row), then the new game's rows: nothing that holds a row waits for the queue's lock.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.social.reads import blocked_pairs
from accounts.users import browsers
from accounts.users.sanctions import ban_notice_for
from accounts.users.sockets import send_to_account
from leaderboard.ratings.reads import shown_ratings

from ..actions.core import record_action
from ..actions.setup import SeatSpec, TimerSpec, create_game, start_round
from ..actions.state import seats_in
from ..core import presence
from ..core.actors import Actor
from ..core.errors import Conflict, NotAllowed
from ..core.narration import user_ref
from ..models import Action, Game, Seat
from .escalation import hold_seconds, tables_left
from .kinds import COMPUTER_LEVEL, TableKind, kind_of
from .models import TableWait
from .seating import Waiting, computer_tables, full_tables

QUEUE_READ = 500  # entries of one kind a pass reads: nobody waits long once the range is "anyone"

SEATED_ELSEWHERE = "You are seated at a game between people: finish it before you press Play now."
STARTED_ELSEWHERE = "You started another game, so you stopped waiting for this table."
STOPPED = "You stopped waiting."
WAITING_ELSEWHERE = "You are waiting for another table ({name}): stop waiting for it first."


def queue_lock(table: str) -> None:
    """One press, or one sweep's pass, per kind of table at a time, so that people pressing together
    are seated together instead of all waiting, and nobody is seated twice. (SQLite: its write lock
    already serialises.) Re-entrant within a transaction."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(f"public-table:{table}".encode()) & 0x7FFFFFFF  # the same in every process
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x7AB, key])


def live_games_of(user_ids: list[int]) -> dict[int, str]:
    """{player: a game they are seated in and still playing}, of the games between people that go on
    without them (timed ones, public tables): where a press of Play now would seat them twice."""
    rows = (
        Seat.objects.filter(
            user_id__in=user_ids,
            kind=Seat.Kind.HUMAN,
            resigned=False,
            game__status=Game.Status.PLAYING,
            game__mode=Game.Mode.FRIENDS,
        )
        .filter(Q(game__public=True) | Q(game__timer_seconds__gt=0))
        .values_list("user_id", "game_id")
    )
    return dict(rows)


def waiting_entry(user_id: int) -> TableWait | None:
    return TableWait.objects.filter(user_id=user_id, status=TableWait.Status.WAITING).first()


def kind_of_entry(entry: TableWait) -> TableKind:
    options = tuple(sorted((name, True) for name, on in (entry.options or {}).items() if on))
    return TableKind(entry.ruleset, entry.seats, entry.timer_seconds, options)


def do_play_now(
    actor: Actor,
    ruleset: str,
    seats: int,
    timer: int,
    options: dict[str, Any] | None = None,
    computers: bool = False,
) -> TableWait:
    """Wait for a public table of this kind, and be seated at once if enough compatible players wait
    (the entry is then `seated`, its `game` the table). Pressed again for the same table: the same
    entry."""
    if actor.user_id is None:
        raise NotAllowed("Sign up or log in to play at a public table.")
    kind = kind_of(ruleset, seats, timer, options or {})
    notice = ban_notice_for(actor.user_id)
    if notice:
        raise NotAllowed(notice)
    with transaction.atomic():
        queue_lock(kind.key)  # before any row
        mine = waiting_entry(actor.user_id)
        if mine is not None:
            if mine.table == kind.key:
                if mine.computers != computers:
                    mine.computers = computers
                    mine.save(update_fields=["computers"])
                return mine
            raise Conflict(WAITING_ELSEWHERE.format(name=kind_of_entry(mine).name))
        if live_games_of([actor.user_id]):
            raise Conflict(SEATED_ELSEWHERE)
        now = timezone.now()
        hold = hold_seconds(tables_left(actor.user_id))
        try:
            with transaction.atomic():
                entry = TableWait.objects.create(
                    user_id=actor.user_id,
                    player_key=actor.key,
                    table=kind.key,
                    ruleset=kind.ruleset,
                    seats=kind.seats,
                    timer_seconds=kind.timer,
                    options=dict(kind.options),
                    computers=computers,
                    created=now,
                    hold_seconds=hold,
                    ready=now + timedelta(seconds=hold),
                    seen=now,
                )
        except IntegrityError:  # the same player's press for another table, at the same moment
            raise Conflict("You are waiting for a table already.") from None
        seat_waiting(kind.key, now, answered=actor.user_id)
        entry.refresh_from_db()
        return entry


def do_stop_waiting(actor: Actor) -> TableWait | None:
    """Stop waiting (None if the player was waiting for nothing: seated meanwhile, or stopped)."""
    if actor.user_id is None:
        return None
    found = waiting_entry(actor.user_id)
    if found is None:
        return None
    with transaction.atomic():
        queue_lock(found.table)  # before the row: a pass seating it runs first, or after this
        entry = waiting_entry(actor.user_id)
        if entry is None:
            return None
        stop_entries([entry], STOPPED)
        return entry


def stop_entries(entries: list[TableWait], reason: str) -> None:
    now = timezone.now()
    TableWait.objects.filter(
        pk__in=[e.pk for e in entries], status=TableWait.Status.WAITING
    ).update(status=TableWait.Status.STOPPED, ended=now, reason=reason)
    for entry in entries:
        entry.status, entry.ended, entry.reason = TableWait.Status.STOPPED, now, reason


def _seconds(moment: datetime) -> float:
    return moment.timestamp()


def _browser_pairs(user_ids: list[int]) -> set[frozenset[int]]:
    """Every two of the players seen in one browser in the last SHARED_DAYS (one query)."""
    since = timezone.now() - timedelta(days=browsers.SHARED_DAYS)
    rows = browsers.BrowserAccount.objects.filter(user_id__in=user_ids, last_seen__gte=since)
    by_browser: dict[str, set[int]] = defaultdict(set)
    for browser, user_id in rows.values_list("browser", "user_id"):
        by_browser[browser].add(user_id)
    return {
        frozenset(pair) for users in by_browser.values() for pair in combinations(sorted(users), 2)
    }


def seat_waiting(
    table: str, now: datetime | None = None, *, answered: int | None = None
) -> list[Game]:
    """Seat every table of this kind that can be seated now: full tables first, then those of
    players who asked for computers and waited long enough. The caller holds the kind's queue lock
    (inside its transaction); the tables opened, each started. `answered`: the player whose press
    this is, whom its answer takes to the table (their pages are not pushed to)."""
    now = now or timezone.now()
    entries = list(
        TableWait.objects.filter(table=table, status=TableWait.Status.WAITING).order_by(
            "created", "pk"
        )[:QUEUE_READ]
    )
    entries = _drop_unseatable(entries)
    if not entries:
        return []
    kind = kind_of_entry(entries[0])
    ids = [e.user_id for e in entries]
    ratings = shown_ratings(ids, kind.ruleset)
    apart = blocked_pairs(ids) | _browser_pairs(ids)

    def may_sit(a: Waiting, b: Waiting) -> bool:
        return frozenset((a.user_id, b.user_id)) not in apart

    waiting = [
        Waiting(e.pk, e.user_id, ratings[e.user_id].value, _seconds(e.ready), e.computers)
        for e in entries
    ]
    by_id = {e.pk: e for e in entries}
    tables = full_tables(waiting, kind.seats, _seconds(now), may_sit)
    seated = {w.entry_id for table in tables for w in table}
    left = [w for w in waiting if w.entry_id not in seated]
    tables += computer_tables(left, kind.seats, _seconds(now), may_sit)
    return [
        _open_table(kind, [by_id[w.entry_id] for w in table], now, answered) for table in tables
    ]


def _drop_unseatable(entries: list[TableWait]) -> list[TableWait]:
    """The entries whose players may still be seated; those banned, or seated in a live game since
    they pressed, are stopped."""
    ids = [e.user_id for e in entries]
    banned = set(
        get_user_model()
        .objects.filter(pk__in=ids, banned_at__isnull=False)
        .values_list("pk", flat=True)
    )
    busy = live_games_of(ids)
    for entry in entries:
        if entry.user_id in banned:
            stop_entries([entry], ban_notice_for(entry.user_id) or "Your account is banned.")
        elif entry.user_id in busy:
            stop_entries([entry], STARTED_ELSEWHERE)
    return [e for e in entries if e.user_id not in banned and e.user_id not in busy]


def _open_table(
    kind: TableKind, people: list[TableWait], now: datetime, answered: int | None
) -> Game:
    """A public table for these players (the longest waiting in seat 1), computers in the seats left,
    started at once; their entries point at it and their pages are told."""
    first = people[0]
    specs = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.OPEN)] * (kind.seats - 1)
    game = create_game(
        Actor(first.user_id, first.player_key),
        Game.Mode.FRIENDS,
        kind.ruleset,
        dict(kind.options),
        specs,
        TimerSpec(seconds=kind.timer),
    )
    game.public = True
    game.owner_id, game.owner_key = None, ""  # nobody hosts a public table
    seats = seats_in(game)
    for seat, entry in zip(seats[1:], people[1:], strict=False):
        seat.kind, seat.user_id, seat.player_key, seat.name = (
            Seat.Kind.HUMAN,
            entry.user_id,
            entry.player_key,
            "",
        )
        seat.save()
        record_action(game, Action.Kind.JOIN, seat, text=f"{user_ref(entry.user_id)} joined.")
    for seat in seats[len(people) :]:
        seat.kind, seat.level, seat.name = Seat.Kind.COMPUTER, COMPUTER_LEVEL, ""
        seat.save()
        text = f"A computer ({seat.level}) takes seat {seat.index + 1}."
        record_action(game, Action.Kind.SEAT, seat, {"kind": seat.kind, "level": seat.level}, text)
    # A computer at the table: no one's rating or points (and not "against people" either).
    game.rated = len(people) == kind.seats
    presence.seated(game.pk, [s.pk for s in seats if s.kind == Seat.Kind.HUMAN])
    start_round(game, seats)
    TableWait.objects.filter(pk__in=[e.pk for e in people]).update(
        status=TableWait.Status.SEATED, game=game, ended=now
    )
    url = game.get_absolute_url()
    for entry in people:
        if entry.user_id != answered:
            _tell_seated(entry.user_id, url)
    return game


def _tell_seated(user_id: int, url: str) -> None:
    """After commit, every open page of the player that listens for it (the waiting screen) goes to
    the table; the screen's poll does the same if the push is lost."""
    html = render_to_string("games/tables/_table_found.html", {"url": url, "oob": True})
    transaction.on_commit(lambda: send_to_account(user_id, html))


def do_keep_waiting(user_id: int) -> None:
    """The waiting screen is open (its poll): the player's entry is not stopped as unattended."""
    TableWait.objects.filter(user_id=user_id, status=TableWait.Status.WAITING).update(
        seen=timezone.now()
    )
