"""How `strong` scores a position: what a good human weighs, in squares of progress.

Progress (a token out of the yard is worth a 6's wait; the home column and home are safe), the danger to
each token from every rival token that could land on it next turn (1-6 squares behind, 7-12 after a 6
bonus roll, two-dice sums in `twodice`), safe squares and pairs that can't be captured, the bonus roll a
move earns, and the same for the rivals, seen from their side.
"""

from __future__ import annotations

from functools import lru_cache

from ..board import SAFE_SQUARES
from ..state import FINISHED, HOME, LAST_TRACK, ROLL, YARD, State
from .geometry import (
    ONE_DIE_HITS,
    TRACK,
    TWO_DICE_HITS,
    corners,
    on_track,
    square,
)

# Token values, in squares of progress. Leaving the yard costs waiting for a 6 (about six turns), so a
# token on the track is worth that much more than its progress; the column and home can't be captured.
OUT = 14.0
COLUMN = 6.0
HOME_BONUS = 8.0
# A bonus roll is worth about one average move plus the chance to do something useful with it.
BONUS_ROLL = 9.0
# How much the expected loss to captures counts against progress: a little more than its expected
# value (tuned on classic games against greedy: 1.0 won ~60%, 1.6 ~63%, 2.5 ~62%).
OWN_RISK = 1.6
# A rival always moves before we do again, so our threats on its tokens are only half real: it may flee.
THREAT_WEIGHT = 0.35
# A `twodice` kill also takes the killer off the board: losing a seed hands the opponent that much.
KILL_GIFT = 0.5 * (OUT + HOME + COLUMN + HOME_BONUS)
# A `places` + `pairs` pair can only be captured by a rival pair landing on it.
PAIR_RISK = 0.15
# A number still in the hand (search cut off, or hold with rolls owed) is worth about this much progress.
DIE_LEFT = 3.0
WIN = 10_000.0


def token_value(progress: int) -> float:
    """What a token at `progress` is worth, in squares."""
    if progress == YARD:
        return 0.0
    if progress <= LAST_TRACK:
        return OUT + progress
    if progress < HOME:
        return OUT + progress + COLUMN
    return OUT + HOME + COLUMN + HOME_BONUS


# Per colour, indexed by progress + 1: (square, chance of no hit) a token may land on next turn; and
# the square a token there can be captured on, or -1.
ReachTable = tuple[tuple[tuple[tuple[int, float], ...], ...], ...]
SquareTable = tuple[tuple[int, ...], ...]

VALUES = tuple(token_value(p) for p in range(YARD, HOME + 1))  # indexed by progress + 1


@lru_cache(maxsize=16)
def _tables(two_dice: bool, corners: tuple[int, ...]) -> tuple[ReachTable, SquareTable]:
    """Per colour, indexed by progress + 1: where a token may land next turn (with the chance it does
    not, 1 - P(hit)), and the square it can be captured on (-1 where it can't be)."""
    hits = TWO_DICE_HITS if two_dice else ONE_DIE_HITS
    reach = len(hits) - 1
    safe = frozenset() if two_dice else SAFE_SQUARES
    # `twodice` has no safe squares: a seed coming out kills on its start square.
    yard_hit = hits[6] if two_dice else 0.0
    reach_table = []
    square_table = []
    for k in corners:
        rows = []
        for q in range(YARD, HOME + 1):
            row: tuple[tuple[int, float], ...]
            if q == YARD:
                row = ((square(k, 0), 1.0 - yard_hit),) if yard_hit else ()
            elif q <= LAST_TRACK:
                top = min(reach, LAST_TRACK - q)
                row = tuple((square(k, q + d), 1.0 - hits[d]) for d in range(1, top + 1))
            else:
                row = ()
            rows.append(row)
        reach_table.append(tuple(rows))
        square_table.append(
            tuple(
                square(k, p) if on_track(p) and square(k, p) not in safe else -1
                for p in range(YARD, HOME + 1)
            )
        )
    return tuple(reach_table), tuple(square_table)


class Evaluator:
    """Scores positions of one game for one player; caches what is fixed for the whole search."""

    def __init__(self, state: State, me: int) -> None:
        self.me = me
        self.ruleset = state.ruleset
        self.corners = corners(state)
        self.owner = tuple(
            next(i for i, p in enumerate(state.players) if c in p) for c in state.colours
        )
        # Classic pairs can't be captured at all; places pairs only by a rival pair.
        if state.ruleset == "classic":
            self.pair_risk = 0.0
        elif state.ruleset == "places" and state.option("pairs"):
            self.pair_risk = PAIR_RISK
        else:
            self.pair_risk = 1.0
        self.players = len(state.players)
        rivals = self.players - 1
        # Against several rivals, one rival's loss is only partly our gain.
        self.rival_weight = 1.0 if rivals == 1 else 0.6
        self._miss_cache: dict[tuple[int, tuple[tuple[int, ...], ...]], list[float]] = {}
        # Tables indexed by progress + 1 (yard is -1), so the hot loops below only look things up.
        self.reach_table, self.square_table = _tables(state.ruleset == "twodice", self.corners)
        self.owned = tuple(
            tuple(c for c in range(len(state.colours)) if self.owner[c] == player)
            for player in range(self.players)
        )
        self.rivals_of = tuple(
            tuple(c for c in range(len(state.colours)) if self.owner[c] != player)
            for player in range(self.players)
        )
        self.loss_extra = KILL_GIFT if state.ruleset == "twodice" else 0.0

    def miss_map(self, tokens: tuple[tuple[int, ...], ...], player: int) -> list[float]:
        """For each track square, P(no token of a rival of `player` lands there on its next turn)."""
        rivals = self.rivals_of[player]
        key = (player, tuple(tokens[c] for c in rivals))
        cached = self._miss_cache.get(key)
        if cached is not None:
            return cached
        miss = [1.0] * TRACK
        for c in rivals:
            reach = self.reach_table[c]
            for q in tokens[c]:
                for sq, factor in reach[q + 1]:
                    miss[sq] *= factor
        self._miss_cache[key] = miss
        return miss

    def side_value(
        self, tokens: tuple[tuple[int, ...], ...], player: int, risk_weight: float
    ) -> float:
        """Progress of `player`'s tokens less what the rivals can be expected to capture next turn."""
        miss = self.miss_map(tokens, player)
        total = 0.0
        for c in self.owned[player]:
            seeds = tokens[c]
            squares = self.square_table[c]
            for p in seeds:
                value = VALUES[p + 1]
                total += value
                sq = squares[p + 1]
                if sq < 0:
                    continue  # yard, safe square, home column or home: nothing to lose
                danger = 1.0 - miss[sq]
                if danger == 0.0:
                    continue
                if seeds.count(p) > 1:
                    danger *= self.pair_risk
                total -= risk_weight * danger * (value + self.loss_extra)
        return total

    def evaluate(self, state: State) -> float:
        """The position's worth to `me`: our side's value less the rivals', plus rolls and dice to come."""
        me = self.me
        if state.status == FINISHED:
            # Earlier place is better.
            rank = state.places.index(me) if me in state.places else len(state.places)
            return WIN * (len(state.players) - 1 - rank)
        extra = 0.0
        our_turn_again = state.turn == me
        if our_turn_again:
            if state.awaiting == ROLL:
                extra += BONUS_ROLL
            extra += BONUS_ROLL * state.rolls + DIE_LEFT * len(state.dice)
        if me in state.places:
            extra += WIN * (len(state.players) - 1 - state.places.index(me)) / 2
        return self.score(state.tokens, our_turn_again, state.places) + extra

    def score(
        self,
        tokens: tuple[tuple[int, ...], ...],
        our_turn_again: bool,
        places: tuple[int, ...] = (),
    ) -> float:
        """Our side's value less the rivals' (players in `places` have finished and no longer count)."""
        # We act again before the rivals when the turn is still ours, so our danger counts for less.
        ours = self.side_value(tokens, self.me, OWN_RISK * (0.5 if our_turn_again else 1.0))
        theirs = 0.0
        for player in range(self.players):
            if player != self.me and player not in places:
                theirs += self.side_value(tokens, player, THREAT_WEIGHT)
        return ours - self.rival_weight * theirs
