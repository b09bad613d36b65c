"""The coins of a staked round when it ends: `settle_round`, which `finish_round` calls in the
transaction of the action that ends the round, and the few facts of staked play that turns, timers and
new rounds ask about. It imports no action module above the core, so every one of them may use it.

The escrow's closing transaction is unique in the database, so a game is never settled twice.
"""

from __future__ import annotations

from accounts.ledger import escrow

from ..errors import Conflict
from ..models import Game, Seat
from ..round_ends import UNRANKED, RoundEnd


def refuse_if_staked(game: Game, what: str) -> None:
    """For what a staked game doesn't have (new rounds: a rematch is a new room with new stakes)."""
    if game.stake:
        raise Conflict(f"A staked room can't {what}: it starts when an opponent joins.")


# --- settlement (called by finish_round) ---------------------------------------------------------------


def settle_round(game: Game, seats: list[Seat], places: list[int], how: RoundEnd) -> dict[int, int]:
    """Close the staked game's escrow once; {seat index: coins won (+) or lost (-)}, {} if unstaked."""
    if not game.stake or escrow.is_closed(game):
        return {}
    held = escrow.stakes_held(game)
    if not held:
        return {}
    by_user = {seat.user_id: seat.index for seat in seats if seat.user_id in held}
    winner = next((seat for seat in seats if places and seat.index == places[0]), None)
    if how in UNRANKED or len(held) < 2 or winner is None or winner.user_id not in held:
        reasons = {
            RoundEnd.CANCEL: "Room cancelled: stake returned",
            RoundEnd.VOID: "Game voided: stake returned",
            RoundEnd.AGREED: "Game ended by agreement: stake returned",
            RoundEnd.IDLE: "Game closed while idle: stake returned",
        }
        coins = escrow.refund(game, reasons.get(how, "Stake returned"), held)
    else:
        coins = escrow.pay_winner(game, winner.user_id, f"Won the pot ({how})", held)
    return {by_user[user_id]: amount for user_id, amount in coins.items() if user_id in by_user}


# --- players who are away -----------------------------------------------------------------------------


def stand_in_level(game: Game, seat: Seat, level: str) -> str:
    """The computer playing for an absent or timed-out person in a staked game plays at the easy
    level: stepping away must never play better than the player would."""
    if game.stake and seat.kind == Seat.Kind.HUMAN:
        return "random"
    return level


def everyone_away(game: Game, seats: list[Seat]) -> bool:
    people = [seat for seat in seats if seat.kind == Seat.Kind.HUMAN]
    return bool(game.stake) and bool(people) and all(seat.is_away for seat in people)
