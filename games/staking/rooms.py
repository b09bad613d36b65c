"""Staked rooms: a friends room for two with a stake, played for coins (docs/ledger.md).

- `do_create_staked_room` opens the room and escrows the host's stake in one transaction;
- `do_join_staked_room` escrows the guest's stake in the transaction that takes the seat and starts the
  game, so a seat is never taken unpaid and a stake never held without a seat;
- `do_cancel_staked_room`: the host closes a room nobody has joined, and the stake comes back (the round
  ends as "cancel": the settlement refunds it).

Lock order (games/actions/core.py): accounts, the game row, then wallets. Creating a room locks the
host's wallet first, but the game is new, so no one else can be waiting for it.
"""

from __future__ import annotations

from django.db import transaction

from accounts.ledger import books, escrow
from accounts.users import browsers

from ..actions.core import lock_game, record_action
from ..actions.leaving import do_abandon, refuse_if_started_since
from ..actions.setup import SeatSpec, TimerSpec, create_game, start_round
from ..actions.state import seats_in
from ..core import presence
from ..core.actors import Actor, refuse_banned, sits_in
from ..core.errors import Conflict, GameError, NotAllowed
from ..core.narration import user_ref
from ..models import Action, Game, Seat
from .commitments import refuse_other_commitments
from .keys import answer, first_answer
from .rules import (
    DEFAULT_TIMER,
    TWO_PLAYER_RULESETS,
    account_of,
    check_stake_for,
    needs_account,
    parse_stake,
    staked_timers,
)

PAIRED_INTO = "paired_into"  # the key, in a merged entry's closing action, of the game it joined


def open_entry_of(user_id: int) -> Game | None:
    """The player's open staked room or quick-match entry (at most one at a time)."""
    return Game.objects.filter(owner_id=user_id, stake__gt=0, status=Game.Status.OPEN).first()


def do_create_staked_room(
    actor: Actor,
    ruleset: str,
    stake: object,
    timer_seconds: int = DEFAULT_TIMER,
    key: str | None = None,
    quick: bool = False,
) -> Game:
    """Open a staked room for two and put the host's stake in its escrow, in one transaction."""
    needs_account(actor, "open a staked room")
    stake = parse_stake(stake)
    if ruleset not in TWO_PLAYER_RULESETS:
        raise GameError("Choose a rule set for two players.")
    if timer_seconds not in staked_timers():
        raise GameError("A staked room's timer is 10, 15 or 30 seconds per action.")
    with transaction.atomic():
        books.locked_wallet(account_of(actor))  # this player's coin decisions, one at a time
        request, first = first_answer(actor, key, ("create", ruleset, stake, timer_seconds, quick))
        if first is not None:
            return first
        check_stake_for(account_of(actor), stake)
        refuse_other_commitments(account_of(actor))
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
        _hold_stake(game, account_of(actor))
        return answer(request, game)


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
    if browsers.share_a_browser(account_of(actor), game.owner_id):  # type: ignore[arg-type]  # None: no match
        raise NotAllowed(SAME_BROWSER)
    if game.status == Game.Status.PLAYING:
        raise Conflict("Someone else joined this room first; it is full.")
    if game.status != Game.Status.OPEN:
        raise Conflict("This room is closed: it was cancelled or the game is over.")


def do_join_staked_room(actor: Actor, game_id: str, key: str | None = None) -> Game:
    """Take the open seat and stake the same coins, in one transaction; the game starts at once."""
    needs_account(actor, "join a staked room")
    with transaction.atomic():
        game = lock_game(game_id)
        request, first = first_answer(actor, key, ("join", game.pk))
        if first is not None:
            return first
        seats = seats_in(game)
        if any(sits_in(seat, actor) for seat in seats) and game.owner_id != actor.user_id:
            return answer(request, game)  # joined already (a repeated click): nothing moves
        refuse_banned(
            game, seats, actor
        )  # a ban that committed after this request was authenticated
        _refuse_joining(game, actor)
        check_stake_for(account_of(actor), game.stake)
        seat_and_start(game, seats, actor)
        return answer(request, game)


def _hold_stake(game: Game, user_id: int) -> None:
    """The player's stake into the game's escrow (NotEnoughCoins, nothing written, if short)."""
    reason = f"Stake on {game.get_ruleset_display()} room"
    escrow.hold_stake(game.pk, user_id, game.stake, reason)


def seat_and_start(game: Game, seats: list[Seat], actor: Actor) -> None:
    """Seat the joining player in the open seat with their stake escrowed, and start the game: every
    joining door (a room, a rematch, a press that pairs at once, the sweeper) asks here whether the
    player holds another commitment for coins, their own open room included."""
    refuse_other_commitments(account_of(actor))
    _hold_stake(game, account_of(actor))
    seat = next(s for s in seats if s.kind == Seat.Kind.OPEN)
    seat.kind, seat.user_id, seat.player_key, seat.name = (
        Seat.Kind.HUMAN,
        actor.user_id,
        actor.key,
        "",
    )
    seat.last_seen = None  # an invited player's page of the waiting room closing is no absence
    seat.save()
    presence.seated(game.pk, [seat.pk])
    record_action(game, Action.Kind.JOIN, seat, text=f"{user_ref(account_of(actor))} joined.")
    start_round(game, seats)


def do_cancel_staked_room(actor: Actor, game_id: str, *, version: int | None = None) -> Game:
    """The host closes a room nobody has joined; the stake comes back (settle_round, how="cancel").
    `version`: the one the host's page showed."""

    with transaction.atomic():
        game = lock_game(game_id)
        if not game.stake or game.owner_id != actor.user_id:
            raise NotAllowed("Only the host can cancel this room.")
        refuse_if_started_since(game, version)
        if game.status != Game.Status.OPEN:
            raise Conflict(_why_not_open(game))
        return do_abandon(game_id, actor)


def _why_not_open(game: Game) -> str:
    """What a cancel pressed on a room no longer open (a second press, a stale page) is told: what
    became of it, as it is now."""
    if game.status == Game.Status.PLAYING:
        return "Someone has joined: the game is on (resign to give it up)."
    closing = (
        Action.objects.filter(game=game, kind=Action.Kind.ABANDON)
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    if isinstance(closing, dict) and closing.get(PAIRED_INTO):
        return "Your quick match was paired with another player's: that game is on."
    if Action.objects.filter(game=game, kind=Action.Kind.START).exists():
        return "This game is over."
    what = "quick match" if game.quick else "room"
    return f"This {what} was already cancelled: your {game.stake:,} coins are back in your wallet."
