"""The `strong` level: the evaluation in `evaluation.py` plus a short memoised search.

One decision searches every sequence of moves the player makes before anyone else acts: in the one-die
rule sets that is the move itself, and a bonus roll it earns is averaged over the six numbers it may show
(one bonus roll deep; further ones are scored flat); with `hold` the numbers of the hand; in `twodice` the
whole hand, planned together by `handplan.py`. Positions
reached by different orders (3 then 5 or 5 then 3) are searched once: the memo is keyed on the tokens
(sorted within a colour: tokens of one colour standing together are interchangeable) and the dice left.
A node budget bounds the search; past it positions are scored without searching deeper.
"""

from __future__ import annotations

from typing import Any

from ..game import apply_move, legal_moves, roll
from ..state import MOVE, PLAYING, ROLL, Move, State
from .evaluation import Evaluator
from .handplan import HORIZON, HandPlanner, canonical

# Past this many searched positions the rest are scored statically (keeps long hands under ~20 ms).
NODE_BUDGET = 400
# Bonus rolls looked through (averaged over the six numbers) on one line of play.
BONUS_LOOKAHEAD = 1
DIE = (1, 2, 3, 4, 5, 6)
# A twodice search that stayed under this many positions is worth repeating one die deeper.
DEEPEN_NODES = 150


def _distinct(state: State, moves: tuple[Move, ...]) -> list[Move]:
    """One move per distinct outcome: tokens of one colour standing together move the same way."""
    seen = set()
    result = []
    for m in moves:
        frm = state.tokens[state.colours.index(m.colour)][m.index]
        key = (m.colour, frm, m.die, m.pair)
        if key not in seen:
            seen.add(key)
            result.append(m)
    return result


class Search:
    """Max over the sequences of moves the player makes before anyone else acts."""

    def __init__(self, state: State, budget: int = NODE_BUDGET) -> None:
        self.me = state.turn
        self.evaluator = Evaluator(state, self.me)
        self.memo: dict[tuple[Any, ...], float] = {}
        self.budget = budget
        self.nodes = 0
        self.planner = HandPlanner(self.evaluator)

    def _continues(self, state: State) -> bool:
        return state.status == PLAYING and state.turn == self.me and state.awaiting == MOVE

    def value(self, state: State, chances: int = 0) -> float:
        """The best score reachable from `state` by our own moves (its static score if it is not ours).

        `chances` counts the bonus rolls already looked through on this line: the first one is
        averaged over its six numbers (a bonus roll's worth depends on what it can do), deeper ones are
        scored flat by the evaluation.
        """
        if state.ruleset == "twodice":
            if not self._continues(state):
                return self.evaluator.evaluate(state)
            return self.planner.search(canonical(state.tokens), tuple(sorted(state.dice)))[1]
        key = (
            tuple(tuple(sorted(t)) for t in state.tokens),
            tuple(sorted(state.dice)),
            state.turn,
            state.awaiting,
            state.rolls,
            state.status,
            state.memo,
            chances,
        )
        found = self.memo.get(key)
        if found is not None:
            return found
        moves: tuple[Move, ...] = ()
        if self._continues(state) and self.nodes < self.budget:
            self.nodes += 1
            moves = legal_moves(state)
        if moves:
            result = max(
                self.value(apply_move(state, m)[0], chances) for m in _distinct(state, moves)
            )
        elif chances < BONUS_LOOKAHEAD and self._bonus_roll(state) and self.nodes < self.budget:
            self.nodes += 1
            result = sum(self.value(roll(state, (d,))[0], chances + 1) for d in DIE) / len(DIE)
        else:
            result = self.evaluator.evaluate(state)
        self.memo[key] = result
        return result

    def _bonus_roll(self, state: State) -> bool:
        """Our move earned another roll (one-die rule sets without `hold`, where the roll is forced)."""
        return (
            state.status == PLAYING
            and state.turn == self.me
            and state.awaiting == ROLL
            and state.rolls == 0
            and not state.dice
        )

    def best(self, state: State, moves: tuple[Move, ...]) -> Move:
        """The legal move that starts the best sequence (first in legal order among equals).

        The first move is always applied by the engine, so the choice is one of `moves` whatever the
        search below it simplifies. A long `twodice` hand is searched to HORIZON dice after the first
        and then, while the search stays small, deeper, up to the whole hand (iterative deepening).
        """
        if state.ruleset != "twodice":
            return self._best_first(state, moves)
        horizon = HORIZON
        while True:
            self.planner = HandPlanner(self.evaluator, horizon)
            choice = self._best_first(state, moves)
            if horizon >= len(state.dice) - 1 or self.planner.nodes > DEEPEN_NODES:
                return choice
            horizon += 1

    def _best_first(self, state: State, moves: tuple[Move, ...]) -> Move:
        best_move, best_value = moves[0], float("-inf")
        for m in _distinct(state, moves):
            v = self.value(apply_move(state, m)[0])
            if v > best_value:
                best_move, best_value = m, v
        return best_move


def strong_move(state: State, moves: tuple[Move, ...]) -> Move:
    if len(moves) == 1:
        return moves[0]
    return Search(state).best(state, moves)


def wants_to_play_first(state: State) -> bool:
    """With `hold` and a roll owed: play numbers now rather than roll first?

    Rolling first is usually better: more numbers in the hand means better choices. The exception is the
    risk of three 6s, which loses the whole hand and undoes the moves made with those 6s: when the hand
    already holds two 6s a third may follow, so we bank what we can first (moves made with other numbers
    are never undone).
    """
    return state.dice.count(6) >= 2
