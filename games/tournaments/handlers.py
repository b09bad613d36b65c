"""The round-end handler of tournament rooms (games/apps.py registers it at the FOLLOW stage, after the
leaderboard has recorded and rated the round, so the next match's room shows the winner's rating with
this match counted): `finish_round` calls it in the transaction of the action that ended the round,
holding the room's lock, so a match can't be over without its winner seated in the next round (or the
prizes paid after the final)."""

from __future__ import annotations

from ..core.round_ends import EndedRound
from .bracket import match_ended


def decide_match(ended: EndedRound) -> None:
    if ended.game.in_tournament:
        match_ended(ended.game, ended.seats, ended.places, ended.how)
