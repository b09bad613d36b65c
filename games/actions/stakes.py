"""Staked rooms: a friends room for two with a stake, played for coins (issue 10, docs/ledger.md).

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

import hashlib
import json
import zlib
from collections.abc import Iterable
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.utils import timezone

from accounts import browsers
from accounts.ledger import books, escrow, rules

from ..actors import Actor, refuse_banned, sits_in
from ..errors import Conflict, GameError, NotAllowed
from ..models import Action, Game, Seat, StakeRequest
from ..narration import user_ref
from ..round_ends import RoundEnd
from .clock import timer_choices
from .core import lock_game, record_action, save_game
from .leaving import do_abandon, refuse_if_started_since
from .rounds import end_round
from .setup import SeatSpec, TimerSpec, create_game, start_round
from .state import seats_in

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


OWN_ACTIONS_TO_COUNT = 10  # a round lifts the new-player cap only if the player played it


def is_new_player(user_id: int) -> bool:
    """Younger than a day, or fewer real rounds against people than the limit: such accounts stake at
    most the new-player cap.

    A real round is one counted on the against-people board in which the account made at least
    OWN_ACTIONS_TO_COUNT rolls or moves itself (not the computer's for its seat), so resigning games
    against the computer, or at once against a friend's second account, lifts nothing.
    """
    from accounts.models import User

    _, games_needed = rules.new_player_limit()
    joined = User.objects.filter(pk=user_id).values_list("date_joined", flat=True).first()
    if joined is None or joined > timezone.now() - timedelta(days=1):
        return True
    return _real_rounds(user_id, games_needed) < games_needed


def _real_rounds(user_id: int, enough: int) -> int:
    """How many of the account's counted rounds against people it played itself (at most `enough`)."""
    from leaderboard.models import Result

    own = (
        Action.objects.filter(
            game_id=OuterRef("round__game_id"),
            round=OuterRef("round__number"),
            seat__user_id=user_id,
            kind__in=(Action.Kind.ROLL, Action.Kind.MOVE),
            auto=Action.Auto.NONE,
        )
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rounds = (
        Result.objects.filter(user_id=user_id, counted=True, against_people=True)
        .annotate(own=Subquery(own))
        .filter(own__gte=OWN_ACTIONS_TO_COUNT)
    )
    return len(rounds.values_list("pk", flat=True)[:enough])


def check_stake_for(user_id: int, stake: int) -> None:
    cap, games_needed = rules.new_player_limit()
    if stake > cap and is_new_player(user_id):
        raise GameError(
            f"New accounts stake at most {cap:,} coins until they are a day old and have played "
            f"{games_needed} games against people."
        )


def _needs_account(actor: Actor, what: str) -> None:
    if not actor.is_authenticated:
        raise NotAllowed(f"Sign up or log in to {what}: staked rooms are played for coins.")


def _account(actor: Actor) -> int:
    """The actor's account id, where _needs_account has made sure there is one."""
    if actor.user_id is None:
        raise NotAllowed("Sign up or log in: staked rooms are played for coins.")
    return actor.user_id


# --- idempotency keys ---------------------------------------------------------------------------------


KEY_REUSED = (
    "This form was already used for a different request: reload the page and try again "
    "(nothing was changed)."
)


def _fingerprint(what: tuple) -> str:
    """What a request asks for (its action and parameters, as the action understood them)."""
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def _first_answer(
    actor: Actor, key: str | None, what: tuple
) -> tuple[StakeRequest | None, Game | None]:
    """Claim the form's key for this request, or find the game its first submission produced.

    Inside the caller's transaction: if the first submission is still running, the unique index makes
    this one wait for it; if it failed (nothing was written), its key is free again. A key that comes
    back with another request (`what`: the action and its parameters) is refused, as payment APIs do:
    answering it with the first request's result would tell the player something they didn't ask.
    """
    if not key:
        return None, None
    key, fingerprint = key[:64], _fingerprint(what)
    try:
        with transaction.atomic():
            claimed = StakeRequest.objects.create(
                user_id=_account(actor), key=key, fingerprint=fingerprint
            )
            return claimed, None
    except IntegrityError:
        first = StakeRequest.objects.select_related("game").get(user_id=_account(actor), key=key)
        if first.fingerprint and first.fingerprint != fingerprint:
            raise GameError(KEY_REUSED, status=422) from None
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
        books.locked_wallet(_account(actor))  # this player's coin decisions, one at a time
        request, first = _first_answer(actor, key, ("create", ruleset, stake, timer_seconds, quick))
        if first is not None:
            return first
        check_stake_for(_account(actor), stake)
        if open_entry_of(_account(actor)):
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
        escrow.hold_stake(game, _account(actor), stake)
        return _answer(request, game)


SAME_BROWSER = (
    "Two accounts played in the same browser can't play each other for coins: yours and the "
    f"host's were, in the last {browsers.SHARED_DAYS} days."
)


def _refuse_joining(game: Game, actor: Actor) -> None:
    if not game.stake:
        raise Conflict("This room has no stake: join it from its page.")
    if game.owner_id == actor.user_id:
        raise Conflict("This is your own room: wait for an opponent, or cancel it.")
    if game.invitee_id is not None and game.invitee_id != actor.user_id:
        raise NotAllowed(f"This rematch is offered to {game.invitee.username} only.")  # type: ignore[union-attr]  # invitee_id is set
    if browsers.share_a_browser(_account(actor), game.owner_id):  # type: ignore[arg-type]  # None: no match
        raise NotAllowed(SAME_BROWSER)
    if game.status == Game.Status.PLAYING:
        raise Conflict("Someone else joined this room first; it is full.")
    if game.status != Game.Status.OPEN:
        raise Conflict("This room is closed: it was cancelled or the game is over.")


def join_staked_room(actor: Actor, game_id: str, key: str | None = None) -> Game:
    """Take the open seat and stake the same coins, in one transaction; the game starts at once."""
    _needs_account(actor, "join a staked room")
    with transaction.atomic():
        game = lock_game(game_id)
        request, first = _first_answer(actor, key, ("join", game.pk))
        if first is not None:
            return first
        seats = seats_in(game)
        if any(sits_in(seat, actor) for seat in seats) and game.owner_id != actor.user_id:
            return _answer(request, game)  # joined already (a repeated click): nothing moves
        refuse_banned(
            game, seats, actor
        )  # a ban that committed after this request was authenticated
        _refuse_joining(game, actor)
        check_stake_for(_account(actor), game.stake)
        _seat_and_start(game, seats, actor)
        return _answer(request, game)


def _seat_and_start(game: Game, seats: list[Seat], actor: Actor) -> None:
    escrow.hold_stake(game, _account(actor), game.stake)
    seat = next(s for s in seats if s.kind == Seat.Kind.OPEN)
    seat.kind, seat.user_id, seat.player_key, seat.name = (
        Seat.Kind.HUMAN,
        actor.user_id,
        actor.key,
        "",
    )
    seat.last_seen = None  # an invited player's page of the waiting room closing is no absence
    seat.save()
    from .. import presence

    presence.seated(game.pk, [seat.pk])
    record_action(game, Action.Kind.JOIN, seat, text=f"{user_ref(_account(actor))} joined.")
    start_round(game, seats)


def cancel_staked_room(actor: Actor, game_id: str, *, version: int | None = None) -> Game:
    """The host closes a room nobody has joined; the stake comes back (settle_round, how="cancel").
    `version`: the one the host's page showed."""

    with transaction.atomic():
        game = lock_game(game_id)
        if not game.stake or game.owner_id != actor.user_id:
            raise NotAllowed("Only the host can cancel this room.")
        refuse_if_started_since(game, version)
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
        request, first = _first_answer(actor, key, ("quick", stake, ruleset))
        if first is not None:
            return first
        waiting = (
            Game.objects.filter(quick=True, stake=stake, ruleset=ruleset, status=Game.Status.OPEN)
            .exclude(owner_id=actor.user_id)
            .exclude(owner_id__in=browsers.accounts_sharing_a_browser_with(_account(actor)))
            .order_by("created", "pk")
            .values_list("pk", flat=True)
        )
        for game_id in waiting[:5]:
            game = lock_game(game_id)
            if game.status != Game.Status.OPEN:
                continue
            check_stake_for(_account(actor), stake)
            _seat_and_start(game, seats_in(game), actor)
            return _answer(request, game)
        # Nobody to pair with: wait, still holding the queue's lock, so whoever presses next finds us.
        game = create_staked_room(actor, ruleset, stake, DEFAULT_TIMER, None, quick=True)
        return _answer(request, game)


def void_for_absence(game: Game, seats: list[Seat]) -> None:
    """Both players away (3 timeouts in a row each): the game is voided and both stakes go back."""
    end_round(
        game,
        seats,
        places=[],
        how=RoundEnd.VOID,
        action=Action.Kind.ABANDON,
        data={"void": "away"},
        text="Both players were away: the game is void and both stakes were returned.",
    )


# --- entries nobody is waiting at -----------------------------------------------------------------------

UNATTENDED_SECONDS = 30


def _absent_key(game_id: str) -> str:
    return f"ludopat:staked:{game_id}:host-absent-since"


def withdraw_unattended(limit: int = 200) -> int:
    """Withdraw (and refund) open staked rooms and quick-match entries whose host has had no page open
    for UNATTENDED_SECONDS. Called by the deadline sweeper every couple of seconds; the number withdrawn.

    "A page open" is the game page's socket or the lobby's refresh (games.presence); for a rematch
    offer, also either player's page of the game it was offered from. The first sweep that sees nobody
    notes the time in Redis, and a later one withdraws the room.
    """
    import time

    from .. import presence

    withdrawn = 0
    rows = (
        Seat.objects.filter(
            index=0, game__stake__gt=0, game__status=Game.Status.OPEN, user__isnull=False
        )
        .values_list("game_id", "user_id", "game__rematch_of_id")
        .order_by("game__created")[:limit]
    )
    redis = presence.client()
    for game_id, user_id, old_id in rows:
        key = _absent_key(game_id)
        # The host at their seat, or (a rematch) the old opponent at the seat offered to them, or
        # either player on the old game's page.
        if presence.connected_seats(game_id) or (
            old_id is not None and presence.connected_seats(old_id)
        ):
            redis.delete(key)
            continue
        now = time.time()
        redis.set(key, now, nx=True, ex=UNATTENDED_SECONDS * 4)
        since = float(redis.get(key) or now)  # type: ignore[arg-type]  # a synchronous client
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
    return (
        Game.objects.filter(rematch_of=game)
        .select_related("owner", "invitee")
        .order_by("-created", "-pk")
        .first()
    )


def invited_seats(game: Game, seats: list[Seat], actor: Actor) -> list[int]:
    """The open seat of a rematch room offered to `actor`, while it waits for them: their page of the
    room counts as present there (the offer is kept), as the host's does at their seat."""
    if game.status != Game.Status.OPEN or not actor.user_id or game.invitee_id != actor.user_id:
        return []
    return [seat.pk for seat in seats if seat.kind == Seat.Kind.OPEN]


def offer_tag(game: Game) -> str:
    """What a finished staked game's board shows of its rematch offer (room and state; "" for any
    other game): part of the board fragment's cache key, so a board rendered while the offer was open
    is not served once it is withdrawn or joined (which the old game's version doesn't show)."""
    if not game.stake or game.status != Game.Status.FINISHED:
        return ""
    offer = (
        Game.objects.filter(rematch_of=game)
        .order_by("-created", "-pk")
        .values_list("pk", "status")
        .first()
    )
    return f"{offer[0]}:{offer[1]}" if offer else ""


def offer_rematch(actor: Actor, game_id: str, key: str | None = None) -> Game:
    """Staked games have no new rounds: a player of a finished one opens a new room at the same stake,
    rules and timer, which only the old opponent may join. It is not listed in the lobby; the offer
    appears on the old game's page, which follows it live (offered, withdrawn, joined)."""

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
        opponent = next((s for s in seats if s.user_id and s.user_id != actor.user_id), None)
        if opponent is None:
            raise Conflict("Your opponent's account is gone: open a room in the lobby instead.")
        request, first = _first_answer(actor, key, ("rematch", old.pk))
        if first is not None:
            return first  # a repeated form: its first answer, and no second offer in the log
        new = create_staked_room(actor, old.ruleset, old.stake, old.timer_seconds)
        new.rematch_of, new.invitee_id = old, opponent.user_id
        new.message = f"Waiting for {user_ref(opponent.user_id)} to accept the rematch at {old.stake:,} coins."  # type: ignore[arg-type]  # the opponent has an account
        new.save(update_fields=["rematch_of", "invitee", "message"])
        _answer(request, new)
        text = f"{user_ref(_account(actor))} offers a rematch at {old.stake:,} coins."
        old.message = text
        record_action(old, Action.Kind.NEW_ROUND, mine[0], {"rematch": new.pk}, text)
        save_game(old, seats=seats)
        return new


# --- the lobby ----------------------------------------------------------------------------------------


def open_rooms(limit: int) -> QuerySet[Game]:
    """Staked rooms waiting for an opponent, oldest first (quick-match entries and rematch offers,
    which are someone's alone, are not listed)."""
    return (
        Game.objects.filter(stake__gt=0, quick=False, status=Game.Status.OPEN, invitee__isnull=True)
        .select_related("owner")
        .order_by("created", "pk")[:limit]
    )


def staked_records(user_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """{user id: (staked games won, lost)}, from the stored results of the staked games they played
    to a place: a win is first place. (Refunded games, which end with no places, count as neither.)"""
    from leaderboard.models import Result

    records: dict[int, list[int]] = {}
    rows = Result.objects.filter(user_id__in=list(user_ids), round__game__stake__gt=0)
    for user_id, place in rows.values_list("user_id", "place"):
        record = records.setdefault(user_id, [0, 0])
        record[0 if place == 1 else 1] += 1
    return {user_id: (won, lost) for user_id, (won, lost) in records.items()}
