"""The coins of a staked round when it ends: `settle_round`, a round-end handler (games/apps.py
registers `settle` at the SETTLE stage, games.core.round_ends), so `finish_round` calls it in the
transaction of the action that ends the round, before the leaderboard records the coins it paid.

The escrow's closing transaction is unique in the database, so a game is never settled twice.
"""

from __future__ import annotations

from accounts.ledger import escrow

from ..core.round_ends import UNRANKED, EndedRound, RoundEnd
from ..models import Game, Seat

# The wallet's line for the winner's payout, in a player's words (the round's end, RoundEnd).
WON_BECAUSE = {
    RoundEnd.WON: "Won the pot: won the game",
    RoundEnd.RESIGN: "Won the pot: the opponent resigned",
    RoundEnd.LEAVE: "Won the pot: the opponent left the game",
    RoundEnd.ABANDON: "Won the pot: the opponent left the game",
    RoundEnd.WIPE: "Won the pot: the opponent gave the round up",
}


def settle(ended: EndedRound) -> None:
    """The round-end handler: the coins each seat won or lost, for the results recorded next."""
    ended.coins = settle_round(ended.game, ended.seats, ended.places, ended.how)


def settle_round(game: Game, seats: list[Seat], places: list[int], how: RoundEnd) -> dict[int, int]:
    """Close the staked game's escrow once; {seat index: coins won (+) or lost (-)}, {} if unstaked."""
    if not game.stake or escrow.is_closed(game.pk):
        return {}
    held = escrow.stakes_held(game.pk)
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
        coins = escrow.refund(game.pk, reasons.get(how, "Stake returned"), held)
    else:
        coins = escrow.pay_winner(
            game.pk, winner.user_id, WON_BECAUSE.get(how, "Won the pot"), held
        )
    return {by_user[user_id]: amount for user_id, amount in coins.items() if user_id in by_user}
