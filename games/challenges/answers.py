"""Answering a challenge: `do_accept` seats both players in a new room (or the invited friend at the
waiting 4-seat table), `do_decline`, and the challenger's `do_withdraw`.

Accepting holds the challenge's row first (two accepts, or an accept and the lapse sweep, are decided
one after the other: the second sees the first's answer), checks it is still waiting and not past its
time, and the refusals of the challenge again (bans, blocks made since). A staked challenge is one more
door of the one-commitment check (games.staking.commitments): both wallets are locked in the ledger's
order (ascending id), each player asked for other commitments, the cap and the balance checked, and
both stakes go into the new game's escrow as ledger postings in the same transaction, so the game
starts paid for by both or not at all. Lock order: the challenge, the room, then the wallets.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.ledger import books, escrow
from accounts.social.reads import blocked_either_way
from accounts.users import browsers
from accounts.users.sanctions import ban_notice_for

from ..actions.core import lock_game
from ..actions.setup import SeatSpec, TimerSpec, create_game, do_join, start_round
from ..actions.state import seats_in
from ..core.actors import Actor
from ..core.errors import Banned, Conflict, GameError, NotAllowed
from ..models import Game, Seat
from ..staking.commitments import refuse_other_commitments
from ..staking.rooms import seat_and_start
from ..staking.rules import check_stake_for
from ..staking.stake_limits import limit_for
from . import live
from .issuing import SAME_BROWSER
from .models import Challenge

LAPSED = "This challenge lapsed: a challenge is answered within 2 minutes."


def _locked(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise GameError("There is no such challenge.", status=404)
    return challenge


def _why_not_waiting(challenge: Challenge) -> str:
    """What a press on a challenge no longer waiting is told: what became of it."""
    Status = Challenge.Status
    if challenge.status == Status.ACCEPTED:
        return "This challenge was accepted already."
    if challenge.status == Status.DECLINED:
        return "This challenge was declined."
    if challenge.status == Status.WITHDRAWN:
        return f"{challenge.challenger.username} withdrew this challenge."
    return LAPSED


def _refuse_answer(challenge: Challenge, actor: Actor) -> None:
    if challenge.challenged_id != actor.user_id:
        raise NotAllowed("This challenge is not for you.")
    if challenge.status != Challenge.Status.PENDING:
        raise Conflict(_why_not_waiting(challenge))
    if timezone.now() >= challenge.lapses:
        raise Conflict(LAPSED)


def do_accept(actor: Actor, challenge_id: int) -> Game:
    """The challenged player accepts: the room they both sit in (a repeated press: the same room)."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        accepted = challenge.status == Challenge.Status.ACCEPTED and challenge.room is not None
        if accepted and challenge.challenged_id == actor.user_id:
            return challenge.room  # type: ignore[return-value]  # accepted already (a second press)
        _refuse_answer(challenge, actor)
        _refuse_pair_at_accept(challenge)
        if challenge.room_id is not None:
            game = _seat_at_table(challenge, actor)
        elif challenge.stake:
            game = _start_staked(challenge, actor)
        else:
            game = _start_free(challenge, actor)
        challenge.status, challenge.answered, challenge.room = (
            Challenge.Status.ACCEPTED,
            timezone.now(),
            game,
        )
        challenge.save(update_fields=["status", "answered", "room"])
        live.answered_on_commit(challenge)
        return game


def _refuse_pair_at_accept(challenge: Challenge) -> None:
    """The challenge's refusals again, as the accepting player reads them: a ban or a block may have
    come since the challenge was made."""
    mine = ban_notice_for(challenge.challenged_id)
    if mine:
        raise Banned(mine)
    name = challenge.challenger.username
    if ban_notice_for(challenge.challenger_id):
        raise Conflict(f"{name} is banned and can't play now.")
    if blocked_either_way(challenge.challenger_id, challenge.challenged_id):
        raise NotAllowed(f"You can't play {name}: one of you has blocked the other.")
    if challenge.stake and browsers.share_a_browser(
        challenge.challenger_id, challenge.challenged_id
    ):
        raise NotAllowed(SAME_BROWSER.format(name=name))


def _challenger(challenge: Challenge) -> Actor:
    """The challenger, seated by the accept (not from their own request: no ban check of a page)."""
    return Actor(challenge.challenger_id, "", challenge.challenger.username)


def _new_room(challenge: Challenge) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.OPEN)] * (challenge.seats - 1)
    game = create_game(
        _challenger(challenge),
        Game.Mode.FRIENDS,
        challenge.ruleset,
        dict(challenge.options),
        seats,
        TimerSpec(seconds=challenge.timer_seconds),
    )
    game.rated = challenge.rated
    game.save(update_fields=["rated"])
    return game


def _start_free(challenge: Challenge, actor: Actor) -> Game:
    """A new room with both players seated; a table of two starts at once, one of four waits for the
    host to invite more friends (or share its link) and start it."""
    game = _new_room(challenge)
    do_join(game.pk, actor)
    game = lock_game(game.pk)
    if challenge.seats == 2:
        start_round(game, seats_in(game))
    return game


def _seat_at_table(challenge: Challenge, actor: Actor) -> Game:
    """An invitation to a 4-seat table waiting to start: the friend takes an open seat."""
    game = lock_game(challenge.room_id)  # type: ignore[arg-type]  # checked by the caller
    if game.status != Game.Status.OPEN:
        raise Conflict("That table has started (or closed) without you.")
    if not any(seat.kind == Seat.Kind.OPEN for seat in seats_in(game)):
        raise Conflict("That table is full.")
    do_join(game.pk, actor)
    return lock_game(game.pk)


def _start_staked(challenge: Challenge, actor: Actor) -> Game:
    """Both wallets locked in id order, both players asked as at every door for coins, both stakes
    escrowed and the game started, in this transaction."""
    challenger_id, challenged_id, stake = (
        challenge.challenger_id,
        challenge.challenged_id,
        challenge.stake,
    )
    for user_id in sorted((challenger_id, challenged_id), key=lambda u: books.wallet_of(u).pk):
        books.locked_wallet(user_id)
    name = challenge.challenger.username
    refuse_other_commitments(challenged_id)  # the sentence is the accepting player's own
    try:
        refuse_other_commitments(challenger_id)
    except Conflict:
        raise Conflict(
            f"{name} is playing for coins elsewhere: this challenge can't start now."
        ) from None
    check_stake_for(challenged_id, stake)
    refusal = limit_for(challenged_id).refusal(stake)
    if refusal:
        raise Conflict(f"This challenge is for {stake:,} coins each. {refusal}")
    try:
        check_stake_for(challenger_id, stake)
    except GameError:
        raise Conflict(f"{name} can't stake {stake:,} coins yet (a new account).") from None
    if limit_for(challenger_id).refusal(stake):
        raise Conflict(f"{name} hasn't {stake:,} coins in their wallet now.")
    game = _new_room(challenge)
    game.stake = stake
    game.message = f"Waiting for {challenge.challenged.username} to stake {stake:,} coins."
    game.save(update_fields=["stake", "message"])
    escrow.hold_stake(
        game.pk, challenger_id, stake, f"Stake on {game.get_ruleset_display()} challenge"
    )
    seat_and_start(game, seats_in(game), actor)
    return game


def do_decline(actor: Actor, challenge_id: int) -> Challenge:
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if (
            challenge.status == Challenge.Status.DECLINED
            and challenge.challenged_id == actor.user_id
        ):
            return challenge  # a second press
        _refuse_answer(challenge, actor)
        challenge.status, challenge.answered = Challenge.Status.DECLINED, timezone.now()
        challenge.save(update_fields=["status", "answered"])
        live.answered_on_commit(challenge)
        return challenge


def do_withdraw(actor: Actor, challenge_id: int) -> Challenge:
    """The challenger takes back a challenge nobody has answered."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.challenger_id != actor.user_id:
            raise NotAllowed("Only the challenger can withdraw a challenge.")
        if challenge.status == Challenge.Status.WITHDRAWN:
            return challenge
        if challenge.status != Challenge.Status.PENDING:
            raise Conflict(_why_not_waiting(challenge))
        challenge.status, challenge.answered = Challenge.Status.WITHDRAWN, timezone.now()
        challenge.save(update_fields=["status", "answered"])
        live.answered_on_commit(challenge)
        return challenge
