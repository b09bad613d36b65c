"""`twodice`: the Nigerian-style two-dice game (docs/rules.md "Two dice").

Two players, each owning two colours (red+green against yellow+blue). Dice are rolled two at a time; a
double six rolls again and every die rolled stays in the hand. The dice are played one at a time, and the
player must play a sequence that uses as many dice as possible. Landing on the opponent kills: every
opposing seed there goes back to the yard and the killer leaves the board (progress 56). A kill that is
not the last die is legal only if the rest of the hand can then be played in full; a winning kill is
always legal. The last seed on the track runs the total of the hand as one move.

The heart of the module is `_most_dice`, the most dice a player can still play from a position. Legal
moves are the moves that start a sequence reaching that maximum. The search runs on a compact canonical
position (own seeds sorted per colour, opponents as a bitmask of occupied track squares), so seeds that
stand together and dice of equal value are explored once, and it is memoised, so long double-six hands
stay fast.

>>> from games.engine.twodice import start, roll, legal_moves
>>> s = start((), (("red", "green"), ("yellow", "blue")))
>>> s, _ = roll(s, (6, 6))
>>> s.awaiting, s.dice
('roll', (6, 6))
>>> s, _ = roll(s, (3, 4))
>>> s.dice, len(legal_moves(s))
((6, 6, 3, 4), 8)
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any, cast

from .board import CORNER, SQUARE
from .state import (
    FINISHED,
    HOME,
    LAST_TRACK,
    MOVE,
    PLAYING,
    ROLL,
    YARD,
    Event,
    MalformedError,
    Move,
    State,
)

NAME = "twodice"
DICE = 2
OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {}

SEEDS = 4  # per colour
SIDES = (frozenset({"red", "green"}), frozenset({"yellow", "blue"}))
PLAYERS = (("red", "green"), ("yellow", "blue"))  # the seats, seat 0 first
SEAT_COUNTS: tuple[int, ...] = (2,)
FIRST_TURN_PASSES = True
CORNERS = CORNER  # each colour plays from its own corner
TOTAL = "total"

# A position for the search: ((corner, sorted progresses), (corner, sorted progresses)) for the mover's
# two colours, plus a bitmask of the track squares where the opponent has seeds.
Own = tuple[tuple[int, tuple[int, ...]], ...]


def square(corner: int, progress: int) -> int:
    """The track square (0-51) of a seed of `corner` at track progress 0..50 (board.py's table).

    >>> square(2, 30)
    4
    """
    return SQUARE[corner][progress]


# --- players and the start ------------------------------------------------------------------------


def check_players(players: tuple[tuple[str, ...], ...]) -> None:
    """Two players: one owns red and green, the other yellow and blue, either listed first.

    >>> check_players((("yellow", "blue"), ("red", "green")))
    >>> check_players((("red",), ("yellow",)))
    Traceback (most recent call last):
    ...
    games.engine.state.MalformedError: twodice needs two players: one with red and green, one with yellow and blue
    """
    ok = (
        len(players) == 2
        and all(len(p) == 2 and len(set(p)) == 2 for p in players)
        # Colour order inside a player's list is free: "red and green" is the same side as "green and red".
        and {frozenset(p) for p in players} == set(SIDES)
    )
    if not ok:
        raise MalformedError(
            "twodice needs two players: one with red and green, one with yellow and blue"
        )


def seat_colours(count: int) -> tuple[tuple[str, ...], ...]:
    if count != 2:
        raise MalformedError(f"twodice is played by 2 players, not {count}")
    return PLAYERS


def start(options: tuple[tuple[str, Any], ...], players: tuple[tuple[str, ...], ...]) -> State:
    """Every seed in its yard, the first listed player to roll.

    >>> s = start((), (("yellow", "blue"), ("red", "green")))
    >>> s.colours, s.turn, s.awaiting
    (('yellow', 'blue', 'red', 'green'), 0, 'roll')
    """
    colours = tuple(c for p in players for c in p)
    return State(
        ruleset=NAME,
        options=tuple(options),
        players=tuple(players),
        colours=colours,
        tokens=tuple((YARD,) * SEEDS for _ in colours),
    )


# --- the search -----------------------------------------------------------------------------------


def _all_out(own: Own) -> bool:
    return all(p == HOME for _, seeds in own for p in seeds)


def _last_seed(own: Own) -> int | None:
    """The progress of the last seed when it must run the total (exactly one not out, on the track).

    Choices the rules leave open: a last seed still in the yard uses single dice (it needs a 6 to
    come out, like any seed), and from the moment it stands on the track it runs the total of what is
    left in the hand, also when it became the last seed in the middle of the hand.
    """
    left = [p for _, seeds in own for p in seeds if p != HOME]
    if len(left) == 1 and 0 <= left[0] <= LAST_TRACK:
        return left[0]
    return None


def _step(corner: int, progress: int, die: int, opp: int) -> tuple[int, int] | None:
    """Where a seed at `progress` lands with `die` (moving alone), and the opponent mask after.

    None if it can't move: in the yard without a 6, home already, or overshooting 56. Landing on a track
    square the opponent holds kills: the square empties and the seed goes to 56.
    """
    if progress == YARD:
        if die != 6:
            return None
        dest = 0
    elif progress == HOME:
        return None
    else:
        dest = progress + die
        if dest > HOME:
            return None
    if dest <= LAST_TRACK:
        bit = 1 << square(corner, dest)
        if opp & bit:
            return HOME, opp & ~bit
    return dest, opp


def _replace(own: Own, slot: int, frm: int, to: int) -> Own:
    corner, seeds = own[slot]
    moved = list(seeds)
    moved[moved.index(frm)] = to
    new = (corner, tuple(sorted(moved)))
    return (new, own[1]) if slot == 0 else (own[0], new)


def _remove(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


# One single move of the search: (slot, frm, die, to, own_after, opp_after, kill).
Option = tuple[int, int, int, int, Own, int, bool]


def _options(own: Own, opp: int, dice: tuple[int, ...]) -> Iterator[Option]:
    """Every distinct single move from a canonical position, killing or not, legal or not yet.

    Yields (slot, frm, die, to, own_after, opp_after, kill). `dice` is sorted; equal dice and seeds that
    stand together give one option each.
    """
    for die in sorted(set(dice)):
        for slot, (corner, seeds) in enumerate(own):
            for frm in sorted(set(seeds)):
                landed = _step(corner, frm, die, opp)
                if landed is None:
                    continue
                to, opp_after = landed
                yield slot, frm, die, to, _replace(own, slot, frm, to), opp_after, opp_after != opp


# Bounded: about 435 bytes an entry, so at most ~30 MB per process; a long hand needs a few thousand.
@lru_cache(maxsize=1 << 16)
def _most_dice(own: Own, opp: int, dice: tuple[int, ...]) -> int:
    """The most dice of the (sorted) hand that can be played from here, obeying every rule.

    A winning move counts as playing every die left. The rules say so for the kill rule; choice: it holds
    for this count too, so a move that wins at once is never ruled out by a longer sequence (a player
    expects to be allowed to win; it only matters when another order would play more dice). A legal kill
    always plays the whole hand: it is legal only if the rest can be played in full, or it is the last
    die, or it wins.
    """
    if not dice:
        return 0
    full = len(dice)
    last = _last_seed(own)
    if last is not None:
        # The last seed on the track moves the total as one move, or not at all.
        return full if last + sum(dice) <= HOME else 0
    best = 0
    for _slot, _frm, die, _to, own_after, opp_after, kill in _options(own, opp, dice):
        if _all_out(own_after):
            return full
        rest = _remove(dice, die)
        after = _most_dice(own_after, opp_after, rest)
        if kill and after < len(rest):
            continue  # a kill that leaves dice unplayable is not a possible move at all
        best = max(best, 1 + after)
        if best == full:
            return full
    return best


# --- from State to the search and back ------------------------------------------------------------


def _mover(state: State) -> tuple[Own, int, tuple[str, ...]]:
    """The canonical search position for the player to act, and its colours in state order."""
    mine = state.players[state.turn]
    own_colours = tuple(c for c in state.colours if c in mine)
    own = tuple(
        (CORNER[c], tuple(sorted(state.tokens[state.colours.index(c)]))) for c in own_colours
    )
    opp = 0
    for c, seeds in zip(state.colours, state.tokens, strict=True):
        if c in mine:
            continue
        for p in seeds:
            if 0 <= p <= LAST_TRACK:
                opp |= 1 << square(CORNER[c], p)
    return own, opp, own_colours


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move: each starts a sequence playing the most dice (docs/rules.md "Two dice").

    Seeds standing together are listed separately; a number held twice in the hand is listed once.

    >>> s = State("twodice", (), (("red", "green"), ("yellow", "blue")), ("red", "green", "yellow", "blue"),
    ...           ((10, -1, -1, -1), (-1,) * 4, (-1,) * 4, (-1,) * 4), awaiting="move", dice=(3, 5))
    >>> [(m.colour, m.index, m.die, m.to) for m in legal_moves(s)]
    [('red', 0, 3, 13), ('red', 0, 5, 15)]
    """
    if state.status != PLAYING or state.awaiting != MOVE or not state.dice:
        return ()
    own, opp, own_colours = _mover(state)
    dice = tuple(sorted(state.dice))
    last = _last_seed(own)
    if last is not None:
        return _total_move(state, own_colours, opp, dice)
    full = len(dice)
    # (dice played, destination) of each distinct (slot, from, die) option; illegal kills left out.
    values: dict[tuple[int, int, int], tuple[int, int]] = {}
    for slot, frm, die, to, own_after, opp_after, kill in _options(own, opp, dice):
        rest = _remove(dice, die)
        if _all_out(own_after):
            value = full  # a winning move (kill or home) is always legal and plays the whole hand
        else:
            after = _most_dice(own_after, opp_after, rest)
            if kill and after < len(rest):
                continue  # kill not on the last die and the rest can't all be played: never possible
            value = 1 + after
        values[(slot, frm, die)] = (value, to)
    if not values:
        return ()
    best = max(v for v, _ in values.values())
    moves = []
    for slot, colour in enumerate(own_colours):
        seeds = state.tokens[state.colours.index(colour)]
        for index, frm in enumerate(seeds):
            for die in sorted(set(dice)):
                found = values.get((slot, frm, die))
                if found is not None and found[0] == best:
                    moves.append(Move(colour, index, die, False, found[1]))
    return tuple(moves)


def _total_move(
    state: State, own_colours: tuple[str, ...], opp: int, dice: tuple[int, ...]
) -> tuple[Move, ...]:
    """The last seed on the track: one move by the sum of the hand, or none if it would pass 56."""
    for colour in own_colours:
        seeds = state.tokens[state.colours.index(colour)]
        for index, frm in enumerate(seeds):
            if frm != HOME:
                dest = frm + sum(dice)
                if dest > HOME:
                    return ()
                if dest <= LAST_TRACK and opp & (1 << square(CORNER[colour], dest)):
                    dest = HOME  # a kill: the killer leaves the board
                return (Move(colour, index, TOTAL, False, dest),)
    return ()


# --- applying rolls and moves ---------------------------------------------------------------------


def roll(state: State, dice: tuple[int, ...]) -> tuple[State, list[Event]]:
    """Add the two dice to the hand. A double six awaits another roll; otherwise play starts (or the
    turn passes at once if no die can be used).

    >>> s = start((), (("red", "green"), ("yellow", "blue")))
    >>> s, events = roll(s, (2, 3))  # every seed in the yard: nothing moves
    >>> s.turn, s.dice, [e.kind for e in events]
    (1, (), ['rolled', 'dice_lost', 'turn_passed'])
    """
    hand = state.dice + tuple(dice)
    events = [Event("rolled", player=state.turn, dice=tuple(dice))]
    if tuple(dice) == (6, 6):
        return _replace_state(state, awaiting=ROLL, dice=hand), events
    playing = _replace_state(state, awaiting=MOVE, dice=hand)
    return _continue(playing, events)


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """Apply a move taken from legal_moves(state).

    >>> s = start((), (("red", "green"), ("yellow", "blue")))
    >>> s, _ = roll(s, (6, 2))
    >>> s, _ = apply(s, legal_moves(s)[0])  # red 0 comes out with the 6
    >>> s.tokens[0], s.dice, [(m.colour, m.index, m.to) for m in legal_moves(s)]
    ((0, -1, -1, -1), (2,), [('red', 0, 2)])
    """
    player = state.turn
    ci = state.colours.index(move.colour)
    frm = state.tokens[ci][move.index]
    tokens = [list(t) for t in state.tokens]
    events: list[Event] = [Event("moved", player=player, token=move.token, frm=frm, to=move.to)]
    # A kill happens when the seed's landing square (which `to` hides as 56) holds the opponent.
    landing = _landing(frm, move, state.dice)
    if 0 <= landing <= LAST_TRACK:
        target = square(CORNER[move.colour], landing)
        mine = state.players[player]
        for oc, seeds in enumerate(tokens):
            colour = state.colours[oc]
            if colour in mine:
                continue
            for oi, p in enumerate(seeds):
                if 0 <= p <= LAST_TRACK and square(CORNER[colour], p) == target:
                    seeds[oi] = YARD
                    events.append(Event("captured", player=player, token=(colour, oi), frm=p))
        if move.to == HOME and landing != HOME:
            events.append(Event("killed", player=player, token=move.token))
    tokens[ci][move.index] = move.to
    if move.to == HOME and landing == HOME:
        events.append(Event("home", player=player, token=move.token))
    hand = () if move.die == TOTAL else _remove(state.dice, cast(int, move.die))
    after = _replace_state(state, tokens=tuple(tuple(t) for t in tokens), dice=hand)
    mine = after.players[player]
    if all(
        p == HOME for c, t in zip(after.colours, after.tokens, strict=True) if c in mine for p in t
    ):
        # All eight out: the game ends at once; dice left in the hand don't matter.
        events.append(Event("player_finished", player=player, place=0))
        events.append(Event("player_finished", player=1 - player, place=1))
        events.append(Event("game_over", player=player))
        done = _replace_state(
            after, status=FINISHED, awaiting=ROLL, dice=(), places=(player, 1 - player)
        )
        return done, events
    return _continue(after, events)


def _landing(frm: int, move: Move, hand: tuple[int, ...]) -> int:
    step = sum(hand) if move.die == TOTAL else int(move.die)
    return 0 if frm == YARD else frm + step


def _continue(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Keep playing the hand if a die can be used; otherwise the leftover dice are lost and the turn
    passes (no extra roll for a kill or for reaching home)."""
    if state.dice and legal_moves(state):
        return state, events
    if state.dice:
        events.append(Event("dice_lost", player=state.turn, dice=state.dice))
    nxt = 1 - state.turn
    events.append(Event("turn_passed", player=nxt))
    return _replace_state(state, turn=nxt, awaiting=ROLL, dice=()), events


def _replace_state(state: State, **changes: Any) -> State:
    return state._replace(**changes)
