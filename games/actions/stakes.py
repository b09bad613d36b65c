"""Staked rooms: a friends room for two with a stake, played for coins (issue 10, ARCHITECTURE "Money").

Coins move only through the ledger (accounts.ledger) and only inside the game's transactions:

- `create_staked_room` opens the room and escrows the host's stake in one transaction;
- `join_staked_room` escrows the guest's stake in the transaction that takes the seat and starts the
  game, so a seat is never taken unpaid and a stake never held without a seat;
- `settle_round`, called by `finish_round` (the one place a round ends) in the transaction of the action
  that ends it, closes the escrow exactly once: the winner takes the pot less the house's cut, and a
  round that counts for nobody (agreed, idle, void, a room cancelled before its start) gives every stake
  back. The escrow's closing transaction is unique in the database, so a second settlement can't happen.

Lock order, everywhere (games/actions/core.py): accounts, the game row, then wallets (accounts in
primary-key order). Creating a room locks the host's wallet first, but the game is new, so no one else
can be waiting for it.
"""

from __future__ import annotations

import zlib
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.ledger import books, escrow, rules

from ..actors import Actor, sits_in
from ..errors import Conflict, GameError, NotAllowed
from ..models import Action, Game, Seat, StakeRequest
from .core import lock_game, record_action, save_game, seats_in, timer_choices
from .leaving import do_abandon
from .rounds import finish_round
from .setup import SeatSpec, TimerSpec, create_game, start_round

DEFAULT_TIMER = 15
TWO_PLAYER_RULESETS = ("twodice", "duel", "classic", "places")


# --- what may be staked -----------------------------------------------------------------------------


def staked_timers() -> tuple[int, ...]:
    """10, 15 or 30 s: a staked room's timer is always on (tests may also use their short timers)."""
    return tuple(seconds for seconds in timer_choices() if seconds)


def parse_stake(raw: object) -> int:
    """A stake typed by a player: ASCII digits only, a whole number within the bounds."""
    from ludopat.numbers import parse_int

    low, high = rules.stake_bounds()
    stake = parse_int(raw) if isinstance(raw, str) else raw if type(raw) is int else None
    if stake is None or not low <= stake <= high:
        raise GameError(f"A stake is a whole number of coins from {low:,} to {high:,}.")
    return stake


def is_new_player(user_id: int) -> bool:
    """Younger than a day, or fewer finished games than the limit: such accounts stake at most 100."""
    from accounts.models import User

    _, games_needed = rules.new_player_limit()
    joined = User.objects.filter(pk=user_id).values_list("date_joined", flat=True).first()
    if joined is None or joined > timezone.now() - timedelta(days=1):
        return True
    finished = Seat.objects.filter(user_id=user_id, game__status=Game.Status.FINISHED)
    return finished.values("game").distinct().count() < games_needed


def check_stake_for(user_id: int, stake: int) -> None:
    cap, games_needed = rules.new_player_limit()
    if stake > cap and is_new_player(user_id):
        raise GameError(
            f"New accounts stake at most {cap:,} coins until they are a day old and have finished "
            f"{games_needed} games."
        )


def _needs_account(actor: Actor, what: str) -> None:
    if not actor.is_authenticated:
        raise NotAllowed(f"Sign up or log in to {what}: staked rooms are played for coins.")


# --- idempotency keys ---------------------------------------------------------------------------------


def _first_answer(actor: Actor, key: str | None) -> tuple[StakeRequest | None, Game | None]:
    """Claim the form's key for this request, or find the game its first submission produced.

    Inside the caller's transaction: if the first submission is still running, the unique index makes
    this one wait for it; if it failed (nothing was written), its key is free again.
    """
    if not key:
        return None, None
    key = key[:64]
    try:
        with transaction.atomic():
            return StakeRequest.objects.create(user_id=actor.user_id, key=key), None
    except IntegrityError:
        first = StakeRequest.objects.select_related("game").get(user_id=actor.user_id, key=key)
        return None, first.game


def _answer(request: StakeRequest | None, game: Game) -> Game:
    if request is not None:
        request.game = game
        request.save(update_fields=["game"])
    return game


# --- creating, joining, cancelling --------------------------------------------------------------------


def open_entry_of(user_id: int) -> Game | None:
    """The player's open staked room or quick-match entry (at most one at a time)."""
    return Game.objects.filter(owner_id=user_id, stake__gt=0, status=Game.Status.OPEN).first()


def create_staked_room(
    actor: Actor,
    ruleset: str,
    stake: object,
    timer_seconds: int = DEFAULT_TIMER,
    key: str | None = None,
    quick: bool = False,
) -> Game:
    """Open a staked room for two and put the host's stake in its escrow, in one transaction."""
    _needs_account(actor, "open a staked room")
    stake = parse_stake(stake)
    if ruleset not in TWO_PLAYER_RULESETS:
        raise GameError("Choose a rule set for two players.")
    if timer_seconds not in staked_timers():
        raise GameError("A staked room's timer is 10, 15 or 30 seconds per action.")
    with transaction.atomic():
        books.locked_wallet(actor.user_id)  # this player's coin decisions, one at a time
        request, first = _first_answer(actor, key)
        if first is not None:
            return first
        check_stake_for(actor.user_id, stake)
        if open_entry_of(actor.user_id):
            raise Conflict("You already have an open staked room or quick match: cancel it first.")
        game = create_game(
            actor,
            Game.Mode.FRIENDS,
            ruleset,
            {},
            [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
            TimerSpec(seconds=timer_seconds),
        )
        game.stake = stake
        game.quick = quick
        game.message = f"Waiting for an opponent to stake {stake:,} coins."
        game.save(update_fields=["stake", "quick", "message"])
        escrow.hold_stake(game, actor.user_id, stake)
        return _answer(request, game)


def _refuse_joining(game: Game, actor: Actor) -> None:
    if not game.stake:
        raise Conflict("This room has no stake: join it from its page.")
    if game.owner_id == actor.user_id:
        raise Conflict("This is your own room: wait for an opponent, or cancel it.")
    if actor.key and game.owner_key == actor.key:
        raise NotAllowed("Two accounts from the same browser can't play each other for coins.")
    if game.status == Game.Status.PLAYING:
        raise Conflict("Someone else joined this room first; it is full.")
    if game.status != Game.Status.OPEN:
        raise Conflict("This room is closed: it was cancelled or the game is over.")


def join_staked_room(actor: Actor, game_id: str, key: str | None = None) -> Game:
    """Take the open seat and stake the same coins, in one transaction; the game starts at once."""
    _needs_account(actor, "join a staked room")
    with transaction.atomic():
        game = lock_game(game_id)
        request, first = _first_answer(actor, key)
        if first is not None:
            return first
        seats = seats_in(game)
        if any(sits_in(seat, actor) for seat in seats) and game.owner_id != actor.user_id:
            return _answer(request, game)  # joined already (a repeated click): nothing moves
        _refuse_joining(game, actor)
        check_stake_for(actor.user_id, game.stake)
        _seat_and_start(game, seats, actor)
        return _answer(request, game)


def _seat_and_start(game: Game, seats: list[Seat], actor: Actor) -> None:
    escrow.hold_stake(game, actor.user_id, game.stake)
    seat = next(s for s in seats if s.kind == Seat.Kind.OPEN)
    seat.kind, seat.user_id, seat.player_key, seat.name = (
        Seat.Kind.HUMAN,
        actor.user_id,
        actor.key,
        "",
    )
    seat.save()
    record_action(game, Action.Kind.JOIN, seat, text=f"{actor.username} joined.")
    start_round(game, seats)


def cancel_staked_room(actor: Actor, game_id: str) -> Game:
    """The host closes a room nobody has joined; the stake comes back (settle_round, how="cancel")."""

    with transaction.atomic():
        game = lock_game(game_id)
        if not game.stake or game.owner_id != actor.user_id:
            raise NotAllowed("Only the host can cancel this room.")
        if game.status != Game.Status.OPEN:
            raise Conflict("Someone has joined: the game is on (resign to give it up).")
        return do_abandon(game_id, actor)


# --- quick match --------------------------------------------------------------------------------------


def _queue_lock(tier: int, ruleset: str) -> None:
    """One quick-match press per tier and rule set at a time, so two people pressing together are
    paired with each other instead of both waiting. (SQLite: its write lock already serialises.)"""
    if connection.vendor == "postgresql":
        # crc32, not hash(): the key must be the same in every process.
        key = zlib.crc32(f"quick-match:{tier}:{ruleset}".encode()) & 0x7FFFFFFF
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x1D0, key])


def quick_match(
    actor: Actor, tier: object, ruleset: str = "twodice", key: str | None = None
) -> Game:
    """Pair with the longest-waiting player at this stake and rule set, or wait for one."""
    _needs_account(actor, "play a quick match")
    stake = parse_stake(tier)
    if stake not in rules.stake_tiers():
        tiers = ", ".join(f"{t:,}" for t in rules.stake_tiers())
        raise GameError(f"Quick match stakes are {tiers} coins.")
    if ruleset not in TWO_PLAYER_RULESETS:
        raise GameError("Choose a rule set for two players.")
    with transaction.atomic():
        _queue_lock(stake, ruleset)
        request, first = _first_answer(actor, key)
        if first is not None:
            return first
        waiting = (
            Game.objects.filter(quick=True, stake=stake, ruleset=ruleset, status=Game.Status.OPEN)
            .exclude(owner_id=actor.user_id)
            .exclude(owner_key=actor.key)
            .order_by("created", "pk")
            .values_list("pk", flat=True)
        )
        for game_id in waiting[:5]:
            game = lock_game(game_id)
            if game.status != Game.Status.OPEN:
                continue
            check_stake_for(actor.user_id, stake)
            _seat_and_start(game, seats_in(game), actor)
            return _answer(request, game)
        # Nobody to pair with: wait, still holding the queue's lock, so whoever presses next finds us.
        game = create_staked_room(actor, ruleset, stake, DEFAULT_TIMER, None, quick=True)
        return _answer(request, game)


def void_for_absence(game: Game, seats: list[Seat]) -> None:
    """Both players away (3 timeouts in a row each): the game is voided and both stakes go back."""
    finish_round(game, seats, [], "void")
    game.message = "Both players were away: the game is void and both stakes were returned."
    record_action(game, Action.Kind.ABANDON, None, {"void": "away"}, game.message)
    save_game(game, seats=seats)


# --- entries nobody is waiting at -----------------------------------------------------------------------

UNATTENDED_SECONDS = 30


def _absent_key(game_id: str) -> str:
    return f"ludopat:staked:{game_id}:host-absent-since"


def withdraw_unattended(limit: int = 200) -> int:
    """Withdraw (and refund) open staked rooms and quick-match entries whose host has had no page open
    for UNATTENDED_SECONDS. Called by the deadline sweeper every couple of seconds; the number withdrawn.

    "A page open" is the game page's socket or the lobby's refresh (games.presence); the first sweep
    that sees the host gone notes the time in Redis, and a later one withdraws the room.
    """
    import time

    from .. import presence

    withdrawn = 0
    rows = (
        Seat.objects.filter(
            index=0, game__stake__gt=0, game__status=Game.Status.OPEN, user__isnull=False
        )
        .values_list("pk", "game_id", "user_id")
        .order_by("game__created")[:limit]
    )
    redis = presence.client()
    for seat_id, game_id, user_id in rows:
        key = _absent_key(game_id)
        if seat_id in presence.connected_seats(game_id):
            redis.delete(key)
            continue
        now = time.time()
        redis.set(key, now, nx=True, ex=UNATTENDED_SECONDS * 4)
        since = float(redis.get(key) or now)
        if now - since < UNATTENDED_SECONDS:
            continue
        try:
            withdraw_entry(user_id, game_id)
            withdrawn += 1
        except GameError:
            pass  # joined, or cancelled, in the meantime
        redis.delete(key)
    return withdrawn


def withdraw_entry(user_id: int, game_id: str | None = None) -> Game | None:
    """Cancel the player's open staked room or quick-match entry (stake refunded), if any."""
    game_id = (
        game_id
        or Game.objects.filter(owner_id=user_id, stake__gt=0, status=Game.Status.OPEN)
        .values_list("pk", flat=True)
        .first()
    )
    if game_id is None:
        return None
    return cancel_staked_room(Actor(user_id, ""), game_id)


# --- rematch --------------------------------------------------------------------------------------------


def rematch_of(game: Game) -> Game | None:
    """The rematch room offered from this finished staked game, if any (the latest offer)."""
    offer = (
        Action.objects.filter(game=game, kind=Action.Kind.NEW_ROUND, data__has_key="rematch")
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    return Game.objects.filter(pk=offer["rematch"]).first() if offer else None


def offer_rematch(actor: Actor, game_id: str, key: str | None = None) -> Game:
    """Staked games have no new rounds: a player of a finished one opens a new room at the same stake,
    rules and timer, and the offer appears on the old game's page for the opponent to join."""

    _needs_account(actor, "offer a rematch")
    with transaction.atomic():
        old = lock_game(game_id)
        if not old.stake or old.status != Game.Status.FINISHED:
            raise Conflict("A rematch is offered once a staked game is over.")
        seats = seats_in(old)
        mine = [seat for seat in seats if sits_in(seat, actor)]
        if not mine:
            raise NotAllowed("Only the players of this game can offer a rematch.")
        offered = rematch_of(old)
        if offered is not None and offered.status == Game.Status.OPEN:
            if offered.owner_id == actor.user_id:
                return offered  # offered already (a repeated click)
            raise Conflict("Your opponent has offered a rematch: join it.")
        new = create_staked_room(actor, old.ruleset, old.stake, old.timer_seconds, key)
        text = f"{actor.username} offers a rematch at {old.stake:,} coins."
        old.message = text
        record_action(old, Action.Kind.NEW_ROUND, mine[0], {"rematch": new.pk}, text)
        save_game(old, seats=seats)
        return new


# --- the lobby ----------------------------------------------------------------------------------------


def open_rooms(limit: int):
    """Staked rooms waiting for an opponent, oldest first (quick-match entries are not listed)."""
    return (
        Game.objects.filter(stake__gt=0, quick=False, status=Game.Status.OPEN)
        .select_related("owner")
        .order_by("created", "pk")[:limit]
    )


def staked_records(user_ids) -> dict[int, tuple[int, int]]:
    """{user id: (staked games won, lost)}, from the finished staked games they sat in: a win is the
    seat in first place. (Refunded games, which end abandoned, count as neither.)"""
    records: dict[int, list[int]] = {}
    seats = Seat.objects.filter(
        user_id__in=user_ids, game__stake__gt=0, game__status=Game.Status.FINISHED
    ).values_list("user_id", "index", "game__result_places")
    for user_id, index, places in seats:
        record = records.setdefault(user_id, [0, 0])
        record[0 if places and places[0] == index else 1] += 1
    return {user_id: (won, lost) for user_id, (won, lost) in records.items()}
