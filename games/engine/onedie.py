"""What the one-die rule sets share (docs/rules.md "Turns with one die"): one engine, four switches.

`classic`, `duel` and `places` differ only in who is captured, what earns a bonus roll, what three 6s
undo and when the game ends; `places` adds the `pairs` (UP Way) and `hold` options. Each rule set module
describes itself with a `Variant` and hands its calls to the functions here.

Every player of these rule sets owns exactly one colour, so a player's index is also its colour's index
in `State.colours` and `State.tokens`.

`State.memo` holds `(run, undo)`: `run` is the number of 6s rolled in a row this turn (0..2), `undo`
is what a three-sixes undo restores: in `places` the tokens as they were when the first of the run was
rolled; with `hold` a tuple of `(moved, captured)` records, one per move made with a 6 since the first of
the run, each a tuple of `(colour_index, token_index, progress_before)`. `classic` and `duel` keep `()`.

This module is the engine's hot path (a benchmark plays whole random games through it): positions are
tuples rebuilt only for the colours that change, squares come from the precomputed tables in board.py,
and `State` is constructed directly.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple, cast

from .board import CORNER, EXIT_ROLL, PROGRESS_ON_SQUARE, SAFE_SQUARES, SQUARE
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

# A position's tokens: progress per colour, parallel to State.colours.
Tokens = tuple[tuple[int, ...], ...]
Outcome = tuple[State, list[Event]]
# State.memo of these rule sets: (run of 6s, what a three-sixes undo restores); see the docstring.
Memo = tuple[int, Any]

NO_SIXES: tuple[int, tuple[Any, ...]] = (0, ())  # memo at the start of a turn
DEFAULT_SEATS = {
    2: ("red", "yellow"),
    3: ("red", "green", "yellow"),
    4: ("red", "green", "yellow", "blue"),
}


class Variant(NamedTuple):
    """The switches that make one of the one-die rule sets."""

    name: str
    corners: dict[str, int]  # colour -> corner it plays from
    protect_pairs: bool  # classic: a colour with two or more tokens on a square can't be captured
    bonus_for_capture_and_home: bool  # classic, places: yes; duel: only a 6 earns a roll
    undo_three_sixes: bool  # places: the third 6 undoes the moves of the first two
    play_for_every_place: bool  # places: play on after the first finisher; others: first wins


def bind(
    variant: Variant,
) -> tuple[partial[State], partial[tuple[Move, ...]], partial[Outcome], partial[Outcome]]:
    """A rule set module's (start, legal_moves, roll, apply), each with `variant` filled in.

    >>> start, legal_moves, roll, apply = bind(Variant("demo", {"red": 0, "yellow": 2}, True, True,
    ...                                               False, False))
    >>> start((("tokens", 2),), (("red",), ("yellow",))).tokens
    ((-1, -1), (-1, -1))
    """
    return (
        partial(start, variant),
        partial(legal_moves, variant),
        partial(roll, variant),
        partial(apply, variant),
    )


SEAT_COUNTS = tuple(DEFAULT_SEATS)


def default_players(count: int) -> tuple[tuple[str, ...], ...]:
    """The default seats of `classic` and `places` (docs/rules.md "Classic").

    >>> default_players(3)
    (('red',), ('green',), ('yellow',))
    """
    if count not in DEFAULT_SEATS:
        raise MalformedError(f"{count} players: these rule sets seat 2 to 4")
    return tuple((c,) for c in DEFAULT_SEATS[count])


def check_one_colour_each(name: str, players: tuple[tuple[str, ...], ...]) -> None:
    """`classic` and `places`: 2-4 players, each exactly one colour, no colour twice."""
    if not 2 <= len(players) <= 4:
        raise MalformedError(f"{name} is played by 2 to 4 players, not {len(players)}")
    seen: set[str] = set()
    for player in players:
        if len(player) != 1:
            raise MalformedError(
                f"in {name} each player plays exactly one colour, not {list(player)}"
            )
        colour = player[0]
        if colour not in CORNER:
            raise MalformedError(f"unknown colour {colour!r}; expected one of {list(CORNER)}")
        if colour in seen:
            raise MalformedError(f"colour {colour!r} is listed twice")
        seen.add(colour)


def start(
    variant: Variant, options: tuple[tuple[str, Any], ...], players: tuple[tuple[str, ...], ...]
) -> State:
    colours = tuple(player[0] for player in players)
    count = dict(options).get("tokens", 4)
    yard = (YARD,) * count
    return State(
        variant.name, options, players, colours, tuple(yard for _ in colours), memo=NO_SIXES
    )


_CORNERS: dict[tuple[str, tuple[str, ...]], tuple[int, ...]] = {}


def corners_of(variant: Variant, colours: tuple[str, ...]) -> tuple[int, ...]:
    """Corner of every colour in play, parallel to `colours` (cached: asked on every move)."""
    key = (variant.name, colours)
    found = _CORNERS.get(key)
    if found is None:
        found = _CORNERS[key] = tuple(variant.corners[c] for c in colours)
    return found


def _flags(variant: Variant, state: State) -> tuple[bool, bool]:
    """(pairs, hold) for this game; only `places` has the options."""
    if not variant.play_for_every_place:
        return False, False
    options = state.options
    return ("pairs", True) in options, ("hold", True) in options


# Events are immutable values, so the few that depend only on a player and the dice are made once and
# shared (they are created on nearly every action of a benchmark game).
_ROLLED: dict[tuple[int, tuple[int, ...]], Event] = {
    (p, (d,)): Event("rolled", player=p, dice=(d,)) for p in range(4) for d in range(1, 7)
}
_TURN_PASSED = tuple(Event("turn_passed", player=p) for p in range(4))
_BONUS_ROLL = tuple(Event("bonus_roll", player=p) for p in range(4))


def _rolled(player: int, dice: tuple[int, ...]) -> Event:
    return _ROLLED.get((player, dice)) or Event("rolled", player=player, dice=dice)


# ---------------------------------------------------------------------------------------------------
# Legal moves


def moves_for_number(
    colours: tuple[str, ...],
    tokens: tuple[tuple[int, ...], ...],
    ci: int,
    corners: tuple[int, ...],
    die: int,
    pairs: bool,
) -> list[Move]:
    """Every move colour `ci` can make with `die` (docs/rules.md; with pairs, "Option pairs")."""
    if pairs:
        return _pairs_moves(colours, tokens, ci, corners, die)
    colour = colours[ci]
    moves = []
    for index, progress in enumerate(tokens[ci]):
        if progress < 0:
            if die == EXIT_ROLL:
                moves.append(Move(colour, index, die, False, 0))
        elif progress + die <= HOME:
            moves.append(Move(colour, index, die, False, progress + die))
    return moves


def _can_move(tokens: tuple[int, ...], die: int) -> bool:
    """Whether any token can use `die`, without pairs (the common question after a roll)."""
    if die == EXIT_ROLL and YARD in tokens:
        return True
    limit = HOME - die
    return any(0 <= progress <= limit for progress in tokens)


def rival_pair_squares(
    tokens: tuple[tuple[int, ...], ...], ci: int, corners: tuple[int, ...]
) -> set[int]:
    """Track squares where a colour other than `ci` holds a pair (two or more tokens)."""
    squares: set[int] = set()
    for cj, theirs in enumerate(tokens):
        if cj == ci:
            continue
        table = SQUARE[corners[cj]]
        seen: set[int] = set()
        for progress in theirs:
            if 0 <= progress <= LAST_TRACK:
                square = table[progress]
                if square in seen:
                    squares.add(square)
                seen.add(square)
    return squares


def _pairs_moves(
    colours: tuple[str, ...], tokens: Tokens, ci: int, corners: tuple[int, ...], die: int
) -> list[Move]:
    colour = colours[ci]
    mine = tokens[ci]
    table = SQUARE[corners[ci]]
    blocked = rival_pair_squares(tokens, ci, corners)
    moves = []
    for index, progress in enumerate(mine):
        if progress < 0:
            if die == EXIT_ROLL:
                moves.append(Move(colour, index, die, False, 0))
            continue
        if progress == HOME:
            continue
        together = mine.count(progress)
        square = table[progress]  # -1 in the home column
        safe = square in SAFE_SQUARES
        # Off a safe square a pair is locked; with three tokens one of them is a free single (any of
        # the three may be it), with four there are two locked pairs and no single.
        may_go_alone = safe or together % 2 == 1
        if may_go_alone and square >= 0 and not safe and square in blocked:
            may_go_alone = False  # it landed on a rival pair and waits until the pair moves on
        if may_go_alone and progress + die <= HOME:
            passes_pair = any(
                table[step] in blocked and table[step] not in SAFE_SQUARES
                for step in range(progress + 1, min(progress + die, LAST_TRACK + 1))
            )
            if not passes_pair:
                moves.append(Move(colour, index, die, False, progress + die))
        if together >= 2 and die % 2 == 0 and progress + die // 2 <= HOME:
            moves.append(Move(colour, index, die, True, progress + die // 2))
    return moves


def legal_moves(variant: Variant, state: State) -> tuple[Move, ...]:
    if state.awaiting != MOVE or state.status == FINISHED:
        return ()
    pairs, hold = _flags(variant, state)
    corners = corners_of(variant, state.colours)
    ci = state.turn
    if not hold:
        return tuple(
            moves_for_number(state.colours, state.tokens, ci, corners, state.dice[0], pairs)
        )
    moves: list[Move] = []
    for die in dict.fromkeys(state.dice):  # each distinct number of the hand, in rolled order
        moves.extend(moves_for_number(state.colours, state.tokens, ci, corners, die, pairs))
    return tuple(moves)


def _any_move(
    variant: Variant,
    colours: tuple[str, ...],
    tokens: Tokens,
    ci: int,
    corners: tuple[int, ...],
    hand: tuple[int, ...],
    pairs: bool,
) -> bool:
    for die in set(hand):
        if pairs:
            if _pairs_moves(colours, tokens, ci, corners, die):
                return True
        elif _can_move(tokens[ci], die):
            return True
    return False


# ---------------------------------------------------------------------------------------------------
# Turns, places, the end


def _with(
    state: State,
    tokens: Tokens,
    turn: int,
    awaiting: str,
    dice: tuple[int, ...],
    rolls: int,
    places: tuple[int, ...],
    memo: Memo,
) -> State:
    return State(
        state.ruleset,
        state.options,
        state.players,
        state.colours,
        tokens,
        PLAYING,
        turn,
        awaiting,
        dice,
        rolls,
        places,
        memo,
    )


def _pass_turn(
    state: State, tokens: Tokens, places: tuple[int, ...], events: list[Event]
) -> Outcome:
    """The next player (skipping those who have a place) awaits its first roll."""
    count = len(state.players)
    turn = (state.turn + 1) % count
    while turn in places:
        turn = (turn + 1) % count
    events.append(_TURN_PASSED[turn])
    return _with(state, tokens, turn, ROLL, (), 0, places, NO_SIXES), events


def distance(progresses: tuple[int, ...]) -> int:
    """Distance travelled (classic ranking): the sum of progress, yard tokens counting 0."""
    return sum(p for p in progresses if p > 0)


def _finish(state: State, tokens: Tokens, places: tuple[int, ...], events: list[Event]) -> Outcome:
    events.append(Event("game_over"))
    final = State(
        state.ruleset,
        state.options,
        state.players,
        state.colours,
        tokens,
        FINISHED,
        state.turn,
        ROLL,
        (),
        0,
        places,
        NO_SIXES,
    )
    return final, events


def _player_done(variant: Variant, state: State, tokens: Tokens, events: list[Event]) -> Outcome:
    """The player to move has just brought its last token home."""
    player = state.turn
    count = len(state.players)
    if not variant.play_for_every_place:
        # The first home wins at once; the others by distance, ties to whoever would have moved sooner
        # after the winner.
        others = sorted(
            (j for j in range(count) if j != player),
            key=lambda j: (-distance(tokens[j]), (j - player) % count),
        )
        places = (player, *others)
        events.append(Event("player_finished", player=player, place=0))
        return _finish(state, tokens, places, events)
    places = (*state.places, player)
    events.append(Event("player_finished", player=player, place=len(places) - 1))
    if len(places) == count - 1:
        last = next(j for j in range(count) if j not in places)
        places = (*places, last)
        events.append(Event("player_finished", player=last, place=count - 1))
        return _finish(state, tokens, places, events)
    return _pass_turn(state, tokens, places, events)


# ---------------------------------------------------------------------------------------------------
# Rolls


def roll(variant: Variant, state: State, dice: tuple[int, ...]) -> tuple[State, list[Event]]:
    pairs, hold = _flags(variant, state)
    if hold:
        return _roll_hold(variant, state, dice, pairs)
    die = dice[0]
    run, undo = state.memo
    events = [_rolled(state.turn, dice)]
    if die == 6:
        if run == 2:
            return _three_sixes(variant, state, events)
        if run == 0 and variant.undo_three_sixes:
            undo = state.tokens
        memo = (run + 1, undo)
    else:
        memo = NO_SIXES
    ci = state.turn
    if pairs:
        corners = corners_of(variant, state.colours)
        movable = bool(_pairs_moves(state.colours, state.tokens, ci, corners, die))
    else:
        movable = _can_move(state.tokens[ci], die)
    if movable:
        return _with(state, state.tokens, ci, MOVE, (die,), 0, state.places, memo), events
    if die == 6:  # a 6 that can't be used still earns a roll
        events.append(_BONUS_ROLL[ci])
        return _with(state, state.tokens, ci, ROLL, (), 0, state.places, memo), events
    return _pass_turn(state, state.tokens, state.places, events)


def _three_sixes(variant: Variant, state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The third 6 in a row is never played and ends the turn (places: after undoing the first two)."""
    events.append(Event("three_sixes", player=state.turn))
    tokens = state.tokens
    snapshot = state.memo[1]
    if variant.undo_three_sixes and snapshot:
        for ci, (now, before) in enumerate(zip(tokens, snapshot, strict=True)):
            for index, (was, back) in enumerate(zip(now, before, strict=True)):
                if was != back:
                    kind = "undone" if ci == state.turn else "restored"
                    token = (state.colours[ci], index)
                    events.append(Event(kind, player=state.turn, token=token, frm=was, to=back))
        tokens = snapshot
    return _pass_turn(state, tokens, state.places, events)


def _roll_hold(variant: Variant, state: State, dice: tuple[int, ...], pairs: bool) -> Outcome:
    """hold: the number joins the hand; a 6 owes one more roll (docs/rules.md "Option hold")."""
    die = dice[0]
    run, log = state.memo
    # Rolling while a move is possible spends one of the owed rolls; otherwise the roll awaited is the
    # one not counted in `rolls` (docs/record.md, "The state": `rolls`).
    owed = state.rolls - 1 if state.awaiting == MOVE else state.rolls
    events = [_rolled(state.turn, dice)]
    if die == 6:
        if run == 2:
            return _three_sixes_hold(state, events)
        owed += 1
        memo = (run + 1, log if run else ())
    else:
        memo = NO_SIXES
    hand = (*state.dice, die)
    return _settle_hold(variant, state, state.tokens, hand, owed, memo, events, pairs)


def _settle_hold(
    variant: Variant,
    state: State,
    tokens: Tokens,
    hand: tuple[int, ...],
    owed: int,
    memo: Memo,
    events: list[Event],
    pairs: bool,
) -> Outcome:
    """hold: after each step, move if a number can be used, else roll if one is owed, else pass."""
    ci = state.turn
    corners = corners_of(variant, state.colours)
    if hand and _any_move(variant, state.colours, tokens, ci, corners, hand, pairs):
        return _with(state, tokens, ci, MOVE, hand, owed, state.places, memo), events
    if owed > 0:
        return _with(state, tokens, ci, ROLL, hand, owed - 1, state.places, memo), events
    if hand:
        events.append(Event("dice_lost", player=ci, dice=hand))
    return _pass_turn(state, tokens, state.places, events)


def _three_sixes_hold(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Undo every move made with a 6 since the run began, latest first; the hand is lost."""
    events.append(Event("three_sixes", player=state.turn))
    tokens = [list(t) for t in state.tokens]
    for moved, captured in reversed(state.memo[1]):
        for ci, index, before in moved:
            token = (state.colours[ci], index)
            events.append(Event("undone", state.turn, token, tokens[ci][index], before))
            tokens[ci][index] = before
        for ci, index, before in captured:
            token = (state.colours[ci], index)
            events.append(Event("restored", state.turn, token, tokens[ci][index], before))
            tokens[ci][index] = before
    if state.dice:
        events.append(Event("dice_lost", player=state.turn, dice=state.dice))
    return _pass_turn(state, tuple(tuple(t) for t in tokens), state.places, events)


# ---------------------------------------------------------------------------------------------------
# Moves


def apply(variant: Variant, state: State, move: Move) -> tuple[State, list[Event]]:
    ci = state.turn
    corners = corners_of(variant, state.colours)
    tokens = list(state.tokens)
    mine = list(tokens[ci])
    frm = mine[move.index]
    to = move.to
    player = ci
    events = [Event("moved", player, (move.colour, move.index), frm, to)]
    mine[move.index] = to
    moved = [(ci, move.index, frm)]
    if move.pair:
        partner = next(
            i for i, progress in enumerate(mine) if progress == frm and i != move.index
        )  # the lowest-indexed other token on the square (docs/rules.md "Option pairs")
        mine[partner] = to
        moved.append((ci, partner, frm))
        events.append(Event("moved", player, (move.colour, partner), frm, to))
    tokens[ci] = tuple(mine)

    captured: list[tuple[int, int, int]] = []
    if to <= LAST_TRACK:
        square = SQUARE[corners[ci]][to]
        if square not in SAFE_SQUARES:
            pairs_protected = variant.protect_pairs or _flags(variant, state)[0]
            for cj in range(len(tokens)):
                if cj == ci:
                    continue
                there = PROGRESS_ON_SQUARE[corners[cj]][square]
                count = tokens[cj].count(there)
                if not count:
                    continue
                # Where pairs are protected a single captures only lone tokens and a pair only pairs
                # (docs/rules.md "Classic", "Option pairs"); otherwise every rival token there goes.
                if not pairs_protected or (count >= 2 if move.pair else count == 1):
                    theirs = tokens[cj]
                    colour = state.colours[cj]
                    for index, progress in enumerate(theirs):
                        if progress == there:
                            captured.append((cj, index, there))
                            events.append(Event("captured", player, (colour, index), there, YARD))
                    tokens[cj] = tuple(YARD if p == there else p for p in theirs)
    home = to == HOME
    if home:
        events.append(Event("home", player, (move.colour, move.index)))
    after: Tokens = tuple(tokens)

    if home and all(p == HOME for p in mine):
        return _player_done(variant, state, after, events)

    pairs, hold = _flags(variant, state)
    if hold:
        hand = list(state.dice)
        hand.remove(cast(int, move.die))  # one-die moves always use a number, never "total"
        owed = state.rolls + bool(captured) + home
        run, log = state.memo
        if move.die == 6 and run:
            log = (*log, (tuple(moved), tuple(captured)))
        return _settle_hold(variant, state, after, tuple(hand), owed, (run, log), events, pairs)

    bonus = move.die == 6 or (variant.bonus_for_capture_and_home and (home or bool(captured)))
    if bonus:  # one roll per move, whatever earned it
        events.append(_BONUS_ROLL[ci])
        return _with(state, after, ci, ROLL, (), 0, state.places, state.memo), events
    return _pass_turn(state, after, state.places, events)
