"""A second, deliberately naive implementation of docs/rules.md, written apart from games/engine.

It keeps mutable state, recomputes everything from scratch and follows the text line by line, trading
speed for being easy to check against the rules. test_differential.py plays random games through both
and requires the same state and the same legal moves after every action.
"""

from __future__ import annotations

import copy
from functools import lru_cache

CORNER = {"red": 0, "green": 1, "yellow": 2, "blue": 3}
SAFE = {0, 8, 13, 21, 26, 34, 39, 47}
HOME = 56


def square(colour: str, progress: int, ruleset: str = "") -> int | None:
    """Track square of a token, None off the shared track. `duel` seats blue on corner 2."""
    corner = 2 if (ruleset == "duel" and colour == "blue") else CORNER[colour]
    if 0 <= progress <= 50:
        return (13 * corner + progress) % 52
    return None


class Oracle:
    def __init__(self, ruleset: str, players: list[list[str]], options: dict | None = None):
        options = dict(options or {})
        self.ruleset = ruleset
        self.players = [list(p) for p in players]
        if ruleset == "classic":
            options.setdefault("tokens", 4)
        elif ruleset == "places":
            options.setdefault("pairs", False)
            options.setdefault("hold", False)
        self.options = options
        self.pairs = options.get("pairs", False)
        self.hold = options.get("hold", False)
        count = options.get("tokens", 4)
        self.colours = [c for p in self.players for c in p]
        self.tokens = {c: [-1] * count for c in self.colours}
        self.status = "playing"
        self.turn = 0
        self.awaiting = "roll"
        self.hand: list[int] = []
        self.owed = 1  # hold: rolls the player may still take this turn, the awaited one included
        self.places: list[int] = []
        self.sixes = 0
        self.snapshot = None  # places: tokens before the first 6 of the run
        self.log: list = []  # hold: (moved, captured) of each move made with a 6 during the run

    # ------------------------------------------------------------------ JSON
    def state(self) -> dict:
        rolls = 0
        if self.hold and self.status == "playing":
            rolls = self.owed if self.awaiting == "move" else self.owed - 1
        finished = self.status == "finished"
        return {
            "ruleset": self.ruleset,
            "options": dict(sorted(self.options.items())),
            "players": self.players,
            "status": self.status,
            "turn": self.turn,
            "awaiting": "roll" if finished else self.awaiting,
            "dice": [] if finished else list(self.hand),
            "rolls": 0 if finished else rolls,
            "tokens": {c: list(t) for c, t in self.tokens.items()},
            "places": list(self.places),
        }

    # ------------------------------------------------------------------ one die: legal moves
    def _mine(self) -> str:
        return self.players[self.turn][0]

    def _rival_pair_squares(self, colour: str) -> set[int]:
        out = set()
        for c, ts in self.tokens.items():
            if c == colour:
                continue
            for p in ts:
                sq = square(c, p)
                if sq is not None and sum(1 for q in ts if square(c, q) == sq) >= 2:
                    out.add(sq)
        return out

    def _moves_with(self, die: int) -> list[dict]:
        colour = self._mine()
        ts = self.tokens[colour]
        out = []
        for i, p in enumerate(ts):
            if p == -1:
                if die == 6:
                    out.append({"token": [colour, i], "die": die, "pair": False, "to": 0})
                continue
            if p == HOME:
                continue
            if not self.pairs:
                if p + die <= HOME:
                    out.append({"token": [colour, i], "die": die, "pair": False, "to": p + die})
                continue
            n = ts.count(p)
            sq = square(colour, p)
            safe = sq in SAFE
            rival_pairs = self._rival_pair_squares(colour)
            alone = n == 1 or safe or n == 3
            if sq is not None and not safe and sq in rival_pairs:
                alone = False  # waits under a rival pair
            if alone and p + die <= HOME:
                blocked = False
                for step in range(p + 1, p + die):
                    s = square(colour, step)
                    if s is not None and s not in SAFE and s in rival_pairs:
                        blocked = True
                if not blocked:
                    out.append({"token": [colour, i], "die": die, "pair": False, "to": p + die})
            if n >= 2 and die % 2 == 0 and p + die // 2 <= HOME:
                out.append({"token": [colour, i], "die": die, "pair": True, "to": p + die // 2})
        return out

    def legal(self) -> list[dict]:
        if self.status != "playing" or self.awaiting != "move":
            return []
        if self.ruleset == "twodice":
            return self._twodice_legal()
        out = []
        for die in dict.fromkeys(self.hand):
            out.extend(self._moves_with(die))
        return out

    # ------------------------------------------------------------------ one die: actions
    def _pass(self) -> None:
        n = len(self.players)
        t = (self.turn + 1) % n
        while t in self.places:
            t = (t + 1) % n
        self.turn = t
        self.awaiting = "roll"
        self.hand = []
        self.owed = 1
        self.sixes = 0
        self.snapshot = None
        self.log = []

    def roll(self, dice: list[int]) -> None:
        if self.ruleset == "twodice":
            return self._twodice_roll(dice)
        die = dice[0]
        if self.hold:
            return self._hold_roll(die)
        if die == 6:
            if self.sixes == 0:
                self.snapshot = copy.deepcopy(self.tokens)
            self.sixes += 1
            if self.sixes == 3:
                if self.ruleset == "places":
                    self.tokens = self.snapshot
                self._pass()
                return
        else:
            self.sixes = 0
            self.snapshot = None
        self.hand = [die]
        if self._moves_with(die):
            self.awaiting = "move"
        elif die == 6:
            self.hand = []
            self.awaiting = "roll"
        else:
            self._pass()

    def _hold_roll(self, die: int) -> None:
        self.owed -= 1
        self.hand.append(die)
        if die == 6:
            if self.sixes == 0:
                self.log = []
            self.sixes += 1
            if self.sixes == 3:
                for moved, captured in reversed(self.log):
                    for c, i, before in moved + captured:
                        self.tokens[c][i] = before
                self._pass()
                return
            self.owed += 1
        else:
            self.sixes = 0
            self.log = []
        self._hold_settle()

    def _hold_settle(self) -> None:
        if any(self._moves_with(d) for d in set(self.hand)):
            self.awaiting = "move"
        elif self.owed > 0:
            self.awaiting = "roll"
        else:
            self._pass()

    def _capture(self, colour: str, to: int, as_pair: bool) -> list:
        captured = []
        sq = square(colour, to, self.ruleset)
        if sq is None or sq in SAFE:
            return captured
        for c, ts in self.tokens.items():
            if c == colour:
                continue
            there = [i for i, p in enumerate(ts) if square(c, p, self.ruleset) == sq]
            if not there:
                continue
            if self.ruleset == "classic":
                take = len(there) == 1
            elif self.ruleset == "duel" or not self.pairs:
                take = True
            else:
                take = len(there) >= 2 if as_pair else len(there) == 1
            if take:
                for i in there:
                    captured.append((c, i, ts[i]))
                    ts[i] = -1
        return captured

    def move(self, token: list, die: int, pair: bool) -> None:
        if self.ruleset == "twodice":
            return self._twodice_move(token, die)
        colour, i = token
        ts = self.tokens[colour]
        frm = ts[i]
        to = frm + die // 2 if pair else (0 if frm == -1 else frm + die)
        moved = [(colour, i, frm)]
        ts[i] = to
        if pair:
            j = min(k for k, p in enumerate(ts) if p == frm and k != i)
            ts[j] = to
            moved.append((colour, j, frm))
        captured = self._capture(colour, to, pair)
        home = to == HOME
        self.hand.remove(die)
        if all(p == HOME for p in ts):
            self._player_home()
            return
        if self.hold:
            if die == 6 and self.sixes > 0:
                self.log.append((moved, captured))
            self.owed += bool(captured) + home
            self._hold_settle()
            return
        bonus = die == 6 if self.ruleset == "duel" else die == 6 or bool(captured) or home
        if bonus:
            self.awaiting = "roll"
            self.hand = []
        else:
            self._pass()

    def _player_home(self) -> None:
        n = len(self.players)
        me = self.turn
        if self.ruleset in ("classic", "duel"):

            def dist(j):
                return sum(max(p, 0) for p in self.tokens[self.players[j][0]])

            others = sorted(
                (j for j in range(n) if j != me), key=lambda j: (-dist(j), (j - me) % n)
            )
            self.places = [me, *others]
            self.status = "finished"
            self.hand = []
            return
        self.places.append(me)
        if len(self.places) == n - 1:
            self.places.append(next(j for j in range(n) if j not in self.places))
            self.status = "finished"
            self.hand = []
            return
        self._pass()

    # ------------------------------------------------------------------ twodice
    def _side(self, player: int) -> list[str]:
        return self.players[player]

    def _twodice_roll(self, dice: list[int]) -> None:
        self.hand.extend(dice)
        if dice == [6, 6]:
            self.awaiting = "roll"
            return
        self.awaiting = "move"
        self._twodice_continue()

    def _twodice_continue(self) -> None:
        if self.hand and self._twodice_legal():
            self.awaiting = "move"
            return
        self.turn = 1 - self.turn
        self.awaiting = "roll"
        self.hand = []

    def _pos(self):
        return tuple((c, tuple(self.tokens[c])) for c in self.colours)

    def _twodice_legal(self) -> list[dict]:
        pos = self._pos()
        hand = tuple(sorted(self.hand))
        moves = _td_moves(pos, self.turn, tuple(map(tuple, self.players)), hand)
        if not moves:
            return []
        scored = []
        for m, after, rest, kill, won in moves:
            if won:
                value = len(hand)
            else:
                most = _td_most(_canon(after), self.turn, tuple(map(tuple, self.players)), rest)
                if kill and most < len(rest):
                    continue
                value = len(hand) - len(rest) + most
            scored.append((value, m))
        if not scored:
            return []
        best = max(v for v, _ in scored)
        return [m for v, m in scored if v == best]

    def _twodice_move(self, token, die) -> None:
        pos = self._pos()
        hand = tuple(sorted(self.hand))
        for m, after, _rest, _kill, won in _td_moves(
            pos, self.turn, tuple(map(tuple, self.players)), hand
        ):
            if m["token"] == list(token) and m["die"] == die:
                self.tokens = {c: list(t) for c, t in after}
                if die == "total":
                    self.hand = []
                else:
                    self.hand.remove(die)
                if won:
                    self.status = "finished"
                    self.places = [self.turn, 1 - self.turn]
                    self.hand = []
                    self.awaiting = "roll"
                    return
                self._twodice_continue()
                return
        raise AssertionError("oracle: move not found")


def _td_last(pos, side) -> tuple[str, int] | None:
    left = [(c, i) for c, ts in pos if c in side for i, p in enumerate(ts) if p != HOME]
    if len(left) == 1:
        c, i = left[0]
        p = dict(pos)[c][i]
        if 0 <= p <= 50:
            return c, i
    return None


def _td_land(pos, side, colour, i, dest):
    """Tokens after a seed of `colour` lands on `dest` (kills included), and whether it killed."""
    new = {c: list(t) for c, t in pos}
    kill = False
    if dest <= 50:
        sq = square(colour, dest)
        for c in new:
            if c in side:
                continue
            for j, p in enumerate(new[c]):
                if square(c, p) == sq:
                    new[c][j] = -1
                    kill = True
    new[colour][i] = HOME if kill else dest
    return tuple((c, tuple(new[c])) for c, _ in pos), kill


def _canon(pos):
    """Seeds of one colour are interchangeable when only counting dice: sort them."""
    return tuple((c, tuple(sorted(ts))) for c, ts in pos)


@lru_cache(maxsize=100_000)
def _td_moves(pos, turn, players, hand):
    """Every single-die move (kills included, legal or not): (move, pos after, hand left, kill, won)."""
    side = players[turn]
    out = []
    last = _td_last(pos, side)
    if last is not None:
        c, i = last
        p = dict(pos)[c][i]
        dest = p + sum(hand)
        if dest > HOME:
            return ()
        after, kill = _td_land(pos, side, c, i, dest)
        won = all(q == HOME for cc, ts in after if cc in side for q in ts)
        to = HOME if kill else dest
        return (({"token": [c, i], "die": "total", "pair": False, "to": to}, after, (), kill, won),)
    for die in sorted(set(hand)):
        rest = list(hand)
        rest.remove(die)
        for c, ts in pos:
            if c not in side:
                continue
            for i, p in enumerate(ts):
                if p == HOME:
                    continue
                if p == -1:
                    if die != 6:
                        continue
                    dest = 0
                else:
                    dest = p + die
                    if dest > HOME:
                        continue
                after, kill = _td_land(pos, side, c, i, dest)
                won = all(q == HOME for cc, t2 in after if cc in side for q in t2)
                to = HOME if kill else dest
                move = {"token": [c, i], "die": die, "pair": False, "to": to}
                out.append((move, after, tuple(rest), kill, won))
    return tuple(out)


@lru_cache(maxsize=100_000)
def _td_most(pos, turn, players, hand) -> int:
    """Most dice of `hand` playable from `pos` by the player `turn`, every rule obeyed."""
    if not hand:
        return 0
    best = 0
    for _m, after, rest, kill, won in _td_moves(pos, turn, players, hand):
        if won:
            return len(hand)
        most = _td_most(_canon(after), turn, players, rest)
        if kill and most < len(rest):
            continue
        best = max(best, len(hand) - len(rest) + most)
        if best == len(hand):
            return best
    return best
