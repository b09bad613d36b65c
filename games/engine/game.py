"""The engine's public API: start a game, list legal moves, apply a roll or a move.

Every rule set is a module with the same small surface (see `RuleSet` below); this module checks what is
common to all of them (whose action it is, the shape of the dice, matching a requested move against the
legal ones) so the rule set modules only say what is particular to their tradition.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .state import FINISHED, MOVE, ROLL, Event, IllegalMoveError, MalformedError, Move, State


class RuleSet(Protocol):
    """What a rule set module provides (games/engine/classic.py etc.)."""

    NAME: str
    DICE: int  # dice per roll: 1, or 2 for twodice
    # option name -> (default, allowed values); allowed values' types are checked strictly (bool is not int)
    OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]]
    SEAT_COUNTS: tuple[int, ...]  # how many players may play it, fewest first
    # Whether a room's next round hands the first turn on (docs/rules.md: duel's red always starts).
    FIRST_TURN_PASSES: bool

    @property
    def CORNERS(self) -> Mapping[str, int]:
        """The corner (0-3, clockwise from red's) each colour plays from."""

    def seat_colours(self, count: int) -> tuple[tuple[str, ...], ...]:
        """The colours of each seat when `count` play (MalformedError for a count it can't seat)."""

    def check_players(self, players: tuple[tuple[str, ...], ...]) -> None:
        """Raise MalformedError unless the players fit the rule set (docs/record.md `players`)."""

    def start(
        self, options: tuple[tuple[str, Any], ...], players: tuple[tuple[str, ...], ...]
    ) -> State:
        """The position before the first roll."""

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """Every legal move now; empty unless state.awaiting == MOVE."""

    def roll(self, state: State, dice: tuple[int, ...]) -> tuple[State, list[Event]]:
        """Apply a roll the core has checked (right count, 1-6, a roll is allowed now)."""

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        """Apply a move taken from legal_moves(state)."""


def _load_rulesets() -> dict[str, RuleSet]:
    from . import classic, duel, places, twodice

    modules: tuple[RuleSet, ...] = (classic, duel, places, twodice)
    return {m.NAME: m for m in modules}


_RULESETS: dict[str, RuleSet] = {}


def ruleset(name: str) -> RuleSet:
    """The rule set module called `name`; MalformedError for an unknown name."""
    try:
        return _RULESETS[name]  # asked on every roll and move: one dict look-up
    except (KeyError, TypeError):
        pass
    if not _RULESETS:
        _RULESETS.update(_load_rulesets())
    if isinstance(name, str) and name in _RULESETS:
        return _RULESETS[name]
    raise MalformedError(f"unknown rule set {name!r}; expected one of {sorted(_RULESETS)}")


def seat_counts(name: str) -> tuple[int, ...]:
    """How many players rule set `name` seats, fewest first.

    >>> seat_counts("classic"), seat_counts("duel")
    ((2, 3, 4), (2,))
    """
    return ruleset(name).SEAT_COUNTS


def seat_colours(name: str, count: int) -> tuple[tuple[str, ...], ...]:
    """The colours of each seat of a `count`-player game of rule set `name`, seat 0 first.

    >>> seat_colours("classic", 3), seat_colours("twodice", 2)
    ((('red',), ('green',), ('yellow',)), (('red', 'green'), ('yellow', 'blue')))
    """
    return ruleset(name).seat_colours(count)


def next_round_players(name: str, players: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """The turn order of a room's next round: the first turn passes to the next player, who is
    listed first (docs/rules.md "Turns with one die"), unless the rule set fixes who starts.

    >>> next_round_players("classic", [["red"], ["green"], ["yellow"]])
    (('green',), ('yellow',), ('red',))
    >>> next_round_players("duel", [["red"], ["blue"]])
    (('red',), ('blue',))
    """
    order = tuple(tuple(p) for p in players)
    if not ruleset(name).FIRST_TURN_PASSES or not order:
        return order
    return order[1:] + order[:1]


def corners(name: str) -> dict[str, int]:
    """The corner (0-3) each colour of rule set `name` plays from; a copy the caller may keep.

    >>> corners("duel")
    {'red': 0, 'blue': 2}
    """
    return dict(ruleset(name).CORNERS)


def normalise_options(name: str, options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """Defaults filled in, each value checked; sorted (name, value) pairs as State.options holds them."""
    rules = ruleset(name)
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise MalformedError("options must be an object")
    unknown = sorted(set(options) - set(rules.OPTIONS))
    if unknown:
        raise MalformedError(f"rule set {name!r} has no option {unknown[0]!r}")
    result = []
    for key, (default, allowed) in sorted(rules.OPTIONS.items()):
        value = options.get(key, default)
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise MalformedError(f"option {key!r} must be one of {list(allowed)}, not {value!r}")
        result.append((key, value))
    return tuple(result)


def new_game(
    name: str, players: Sequence[Sequence[str]], options: Mapping[str, Any] | None = None
) -> State:
    """A new game of rule set `name` for `players` (each a list of colours), before the first roll.

    >>> s = new_game("classic", [["red"], ["yellow"]])
    >>> s.awaiting, s.tokens
    ('roll', ((-1, -1, -1, -1), (-1, -1, -1, -1)))
    """
    rules = ruleset(name)
    opts = normalise_options(name, options)
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise MalformedError("players must be a list of lists of colours")
    for p in players:
        if (
            not isinstance(p, Sequence)
            or isinstance(p, str)
            or not all(isinstance(c, str) for c in p)
        ):
            raise MalformedError("each player must be a list of colour names")
    frozen = tuple(tuple(p) for p in players)
    rules.check_players(frozen)
    return rules.start(opts, frozen)


def legal_moves(state: State) -> tuple[Move, ...]:
    if state.status == FINISHED or state.awaiting != MOVE:
        return ()
    return ruleset(state.ruleset).legal_moves(state)


def can_roll(state: State) -> bool:
    return state.status != FINISHED and (state.awaiting == ROLL or state.rolls > 0)


FACES = frozenset(range(1, 7))


def roll(state: State, dice: Iterable[int]) -> tuple[State, list[Event]]:
    """Apply the numbers the dice showed. IllegalMoveError if a roll is not allowed now."""
    rules = ruleset(state.ruleset)
    dice = tuple(dice)
    if state.status == FINISHED:
        raise IllegalMoveError("the game is over")
    if state.awaiting != ROLL and state.rolls <= 0:
        raise IllegalMoveError("a move is awaited, not a roll")
    if len(dice) != rules.DICE:
        raise IllegalMoveError(
            f"{state.ruleset} rolls {rules.DICE} dice at a time, not {len(dice)}"
        )
    for d in dice:
        # `type(d) is int` keeps True (a bool) out; FACES keeps 0 and 7 out.
        if type(d) is not int or d not in FACES:
            raise IllegalMoveError(f"a die shows 1 to 6, not {d!r}")
    return rules.roll(state, dice)


def find_move(
    state: State, colour: str, index: int, die: int | str | None = None, pair: bool = False
) -> Move:
    """The legal move a request names (docs/record.md `move`), or IllegalMoveError saying why."""
    if state.status == FINISHED:
        raise IllegalMoveError("the game is over")
    if colour not in state.colours:
        raise IllegalMoveError(f"{colour!r} is not in play")
    ci = state.colours.index(colour)
    if type(index) is not int or not 0 <= index < len(state.tokens[ci]):
        raise IllegalMoveError(f"{colour} has no token {_label(index)}")
    if state.awaiting != MOVE:
        raise IllegalMoveError("a roll is awaited, not a move")
    if colour not in state.players[state.turn]:
        raise IllegalMoveError(f"it is not {colour}'s turn")
    if die is None and len(set(state.dice)) > 1:
        numbers = " and ".join(str(d) for d in sorted(set(state.dice)))
        raise IllegalMoveError(f"say which number to use: the hand holds {numbers}")
    if die is not None and die != "total" and die not in state.dice:
        raise IllegalMoveError(f"there is no {die} in the hand")
    candidates = [
        m
        for m in legal_moves(state)
        if m.colour == colour
        and m.index == index
        and m.pair == pair
        and (die is None or m.die == die)
    ]
    if not candidates:
        what = f"{colour} {_label(index)}" + (" with its pair" if pair else "")
        using = f" with {die}" if die is not None else ""
        raise IllegalMoveError(f"{what} can't move{using}")
    return candidates[0]


def _label(index: object) -> str:
    """A token as the board labels it (1 to 4; the engine counts from 0)."""
    return str(index + 1) if type(index) is int else repr(index)


def move(
    state: State, colour: str, index: int, die: int | str | None = None, pair: bool = False
) -> tuple[State, list[Event]]:
    """Apply the move a player names. IllegalMoveError (with the reason) if it is not legal."""
    chosen = find_move(state, colour, index, die, pair)
    return ruleset(state.ruleset).apply(state, chosen)


def apply_move(state: State, chosen: Move) -> tuple[State, list[Event]]:
    """Apply a Move taken from legal_moves(state) (bots and benchmarks: no matching needed)."""
    return ruleset(state.ruleset).apply(state, chosen)
