"""Planning a whole `twodice` hand: the best sequence of single-die moves, searched with a memo.

The engine's `apply` is exact but does more than a search needs (events, a new State, re-listing the
legal moves), and a double-six hand of six dice reaches thousands of positions. So the moves after the
first are played on bare token tuples, following docs/rules.md "Two dice": seeds leave the yard only
with a 6, exact home, kills send every opposing seed on the square to the yard and take the killer off
the board, the last seed runs the total, a kill not on the last die must leave the rest of the hand
playable, and a sequence must use as many dice as possible. The first move always comes from the
engine's `legal_moves`, so the plan can only ever start with a legal move.

A position is (tokens with each colour's seeds sorted, the sorted dice left): seeds of one colour that
stand together, and the same dice in another order, are one position (the transposition memo).
"""

from __future__ import annotations

from ..state import HOME, LAST_TRACK, YARD
from .evaluation import DIE_LEFT, WIN, Evaluator

Tokens = tuple[tuple[int, ...], ...]
# Dice searched after the first move, at first: a longer hand (double sixes) is searched this deep and
# the dice beyond are scored as progress to come. Three dice in all keeps even a six-dice hand of eight
# seeds spread over the board to about a thousand positions; two- and three-dice hands are planned to the
# end, and strong.Search deepens a longer hand's search while it stays small.
HORIZON = 2


class HandPlanner:
    """Value of the rest of a hand for the player to act: (dice it can use, best score after them)."""

    def __init__(self, evaluator: Evaluator, horizon: int = HORIZON) -> None:
        self.evaluator = evaluator
        self.horizon = horizon
        me = evaluator.me
        self.mine = tuple(c for c, p in enumerate(evaluator.owner) if p == me)
        self.theirs = tuple(c for c, p in enumerate(evaluator.owner) if p != me)
        self.starts = tuple(13 * k for k in evaluator.corners)
        self.memo: dict[tuple[Tokens, tuple[int, ...]], tuple[int, float]] = {}
        self.nodes = 0
        self._occupied_cache: dict[Tokens, frozenset[int]] = {}

    def leaf(self, tokens: Tokens) -> float:
        """The hand is over: the opponent rolls next."""
        return self.evaluator.score(tokens, our_turn_again=False)

    def _all_out(self, tokens: Tokens) -> bool:
        return all(p == HOME for c in self.mine for p in tokens[c])

    def _occupied(self, tokens: Tokens) -> frozenset[int]:
        """The track squares where the opponent has seeds (they only change when we kill)."""
        key = tuple(tokens[c] for c in self.theirs)
        found = self._occupied_cache.get(key)
        if found is None:
            found = frozenset(
                (self.starts[c] + q) % 52
                for c in self.theirs
                for q in tokens[c]
                if 0 <= q <= LAST_TRACK
            )
            self._occupied_cache[key] = found
        return found

    def _land(self, tokens: Tokens, colour: int, frm: int, to: int) -> tuple[Tokens, bool]:
        """Tokens after our seed of `colour` goes from `frm` to `to`, and whether it killed there.

        Landing on a track square the opponent holds sends every opposing seed there to the yard and
        takes the killer off the board (progress 56).
        """
        rows = list(tokens)
        killed = False
        if to <= LAST_TRACK:
            target = (self.starts[colour] + to) % 52
            if target in self._occupied(tokens):
                killed = True
                to = HOME
                for c in self.theirs:
                    start = self.starts[c]
                    rows[c] = tuple(
                        sorted(
                            YARD if 0 <= q <= LAST_TRACK and (start + q) % 52 == target else q
                            for q in rows[c]
                        )
                    )
        own = list(rows[colour])
        own[own.index(frm)] = to
        own.sort()
        rows[colour] = tuple(own)
        return tuple(rows), killed

    def _last_seed(self, tokens: Tokens) -> tuple[int, int] | None:
        left = [(c, p) for c in self.mine for p in tokens[c] if p != HOME]
        if len(left) == 1 and 0 <= left[0][1] <= LAST_TRACK:
            return left[0]
        return None

    def search(self, tokens: Tokens, dice: tuple[int, ...], depth: int = 0) -> tuple[int, float]:
        """(most dice playable, best score) from here; `tokens` canonical, `dice` sorted."""
        key = (tokens, dice)
        found = self.memo.get(key)
        if found is not None:
            return found
        result = self._search(tokens, dice, depth)
        self.memo[key] = result
        return result

    def _search(self, tokens: Tokens, dice: tuple[int, ...], depth: int) -> tuple[int, float]:
        if not dice:
            return 0, self.leaf(tokens)
        full = len(dice)
        self.nodes += 1
        if depth >= self.horizon:
            # Beyond the horizon: assume the dice get played and count them as progress to come.
            return full, self.leaf(tokens) + DIE_LEFT * full
        last = self._last_seed(tokens)
        if last is not None:
            colour, frm = last
            to = frm + sum(dice)
            if to > HOME:
                return 0, self.leaf(tokens)
            after, _ = self._land(tokens, colour, frm, to)
            return full, WIN if self._all_out(after) else self.leaf(after)
        best: tuple[int, float] | None = None
        for die in sorted(set(dice)):
            i = dice.index(die)
            rest = dice[:i] + dice[i + 1 :]
            for colour in self.mine:
                for frm in sorted(set(tokens[colour])):
                    if frm == YARD:
                        if die != 6:
                            continue
                        to = 0
                    else:
                        to = frm + die
                        if frm == HOME or to > HOME:
                            continue
                    after, killed = self._land(tokens, colour, frm, to)
                    if (killed or to == HOME) and self._all_out(after):
                        return full, WIN  # a winning move plays the whole hand
                    used, value = self.search(after, rest, depth + 1)
                    if killed and used < len(rest):
                        continue  # a kill must leave the rest of the hand playable
                    option = (used + 1, value)
                    if best is None or option > best:
                        best = option
        return best if best is not None else (0, self.leaf(tokens))


def canonical(tokens: Tokens) -> Tokens:
    return tuple(tuple(sorted(t)) for t in tokens)
