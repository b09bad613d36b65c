"""The games' core handlers of tournament rooms (games/apps.py registers them):

- `decide_match`, at the round end's FOLLOW stage (after the leaderboard has recorded and rated the
  round, so the next match's room shows the winner's rating with this match counted): `finish_round`
  calls it in the transaction of the action that ended the round, holding the room's lock, so a match
  can't be over without its winner seated in the next round (or the prizes paid after the final);
- `score_moved`, when a token reaches home and the round goes on: the bracket's viewers get the
  match's new tokens home after commit, a small update that neither writes the tournament's row nor
  re-renders the bracket.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.round_ends import EndedRound
from . import live
from .bracket import match_ended
from .models import TournamentMatch
from .scores import tokens_home

if TYPE_CHECKING:
    from ..engine import State
    from ..models import Game


def decide_match(ended: EndedRound) -> None:
    if ended.game.in_tournament:
        match_ended(ended.game, ended.seats, ended.places, ended.how)


def score_moved(game: Game, state: State) -> None:
    if not game.in_tournament:
        return
    match = (
        TournamentMatch.objects.filter(game_id=game.pk)
        .values("tournament_id", "round", "slot")
        .first()
    )
    if match is None:
        return
    tokens = {colour: list(t) for colour, t in zip(state.colours, state.tokens, strict=True)}
    scores = tokens_home(game.players, tokens)
    live.score_on_commit(
        match["tournament_id"], f"{match['round']}-{match['slot']}", [scores[0], scores[1]]
    )
