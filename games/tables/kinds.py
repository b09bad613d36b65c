"""What a public table is: a rule set with its options, 2 or 4 seats, and the per-action timer. Players
are seated together only at the same kind, so each kind has a key (`TableKind.key`), the waiting list's
column.

Seat counts are the rule set's own (the engine's `seat_colours`): classic and places seat 2 or 4,
duel and two dice 2. Three seats are left out: a public table is a duel or a full board.

>>> TableKind("places", 4, 15, (("hold", True), ("pairs", False))).key
'places:4:15:hold'
>>> TableKind("classic", 2, 10).key, TableKind("places", 2, 30).key
('classic:2:10', 'places:2:30')
>>> kind_of("duel", 4, 15, {})
Traceback (most recent call last):
...
games.core.errors.GameError: Duel is played by 2 players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import engine
from ..actions.clock import timer_choices
from ..core.errors import GameError
from ..models import RULESET_NAMES

SEAT_COUNTS = (2, 4)
PUBLIC_TIMERS = (10, 15, 30)  # seconds per action; tests may use the short test timers too
COMPUTERS_AFTER = 30  # seconds of waiting before empty seats may go to computers (when ticked)
COMPUTER_LEVEL = "greedy"
# The options a public table may be asked with: places' (each on or off); the other rule sets are
# played as they come (classic with its four tokens).
PUBLIC_OPTIONS = {"places": ("hold", "pairs")}


def seat_counts(ruleset: str) -> tuple[int, ...]:
    """The public tables' seat counts the rule set plays (the engine decides).

    >>> seat_counts("classic"), seat_counts("twodice")
    ((2, 4), (2,))
    """
    counts = []
    for count in SEAT_COUNTS:
        try:
            engine.seat_colours(ruleset, count)
        except engine.EngineError:
            continue
        counts.append(count)
    return tuple(counts)


def timers() -> tuple[int, ...]:
    return tuple(n for n in timer_choices() if n)


@dataclass(frozen=True)
class TableKind:
    ruleset: str
    seats: int
    timer: int
    options: tuple[tuple[str, Any], ...] = ()  # the rule set's options that are on, sorted

    @property
    def key(self) -> str:
        on = [name for name, value in self.options if value]
        return ":".join([self.ruleset, str(self.seats), str(self.timer), *on])

    @property
    def rules(self) -> str:
        """The rule set's name as players read it ("Two dice")."""
        return RULESET_NAMES.get(self.ruleset, self.ruleset)

    @property
    def name(self) -> str:
        """ "Places (UP Way pairs) for 4, 15 s a move": how the waiting screen names it."""
        extras = {"pairs": "UP Way pairs", "hold": "hold dice"}
        on = [extras.get(name, name) for name, value in self.options if value]
        rules = self.rules
        if on:
            rules += f" ({', '.join(on)})"
        return f"{rules} for {self.seats}, {self.timer} s a move"


def kind_of(ruleset: str, seats: int, timer: int, options: dict[str, Any]) -> TableKind:
    """The kind asked for, checked (GameError with a sentence otherwise); options the rule set doesn't
    have are refused, those it has and that are off are left out of the key."""
    if ruleset not in RULESET_NAMES:
        raise GameError("Choose a rule set: classic, duel, places or two dice.")
    counts = seat_counts(ruleset)
    if seats not in counts:
        if counts == (2,):
            raise GameError(f"{RULESET_NAMES[ruleset]} is played by 2 players.")
        raise GameError("A public table has 2 or 4 seats.")
    if timer not in timers():
        raise GameError("A public table's timer is 10, 15 or 30 seconds per action.")
    asked = {name for name, value in options.items() if value}
    unknown = asked - set(PUBLIC_OPTIONS.get(ruleset, ()))
    if unknown:
        raise GameError(
            f"A public table of {RULESET_NAMES[ruleset]} has no option {min(unknown)!r}."
        )
    on = tuple((name, True) for name in sorted(asked))
    try:
        engine.new_game(ruleset, engine.seat_colours(ruleset, seats), dict(on))
    except (engine.EngineError, KeyError) as error:
        raise GameError(f"Those rules can't be played: {error}") from None
    return TableKind(ruleset, seats, timer, on)
