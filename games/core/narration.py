"""Sentences for what happened in a game: the message line, the move log, names of colours and seats."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import lru_cache

from .. import engine
from ..models import Seat

COLOUR_NAMES = {"red": "Red", "green": "Green", "yellow": "Yellow", "blue": "Blue"}

# A stored sentence (the move log, the message line) names an account by reference, filled in with the
# account's name when it is shown: a rename reaches every line ever written, in every process. Names a
# player typed (pass & play) are written with their braces doubled, so a name can never pass for a
# reference ("{user:1}" as a name shows as itself, not as account 1's name).
_STORED = re.compile(r"\{\{|\}\}|\{user:(\d+)\}")
UNKNOWN_PLAYER = "A player"


def user_ref(user_id: int) -> str:
    return f"{{user:{user_id}}}"


def who(seat: Seat) -> str:
    """How a stored sentence names a seat's player: an account's seat by reference (its name can
    change), a computer, a pass & play player or a browser's seat by the name it shows."""
    if seat.kind == Seat.Kind.HUMAN and seat.user_id and not seat.name:
        return user_ref(seat.user_id)
    return seat.display_name.replace("{", "{{").replace("}", "}}")


def referenced_users(texts: Iterable[str]) -> set[int]:
    """The accounts the stored sentences `texts` name."""
    return {user for text in texts for user in _referenced(text or "")}


@lru_cache(maxsize=16384)
def _referenced(text: str) -> tuple[int, ...]:
    """The accounts one stored sentence names, found once per process: a board asks of its log's
    forty sentences at every version, and a sentence, once stored, never changes."""
    return tuple(int(found) for found in _STORED.findall(text) if found)


def shown(text: str, names: Mapping[int, str]) -> str:
    """A stored sentence as it is shown: each account it names by its current name.

    >>> shown("{user:7} rolled 5. {user:9}'s turn.", {7: "Ann", 9: "Bo"})
    "Ann rolled 5. Bo's turn."
    >>> shown("{{user:7}} rolled 5.", {7: "Ann"})  # a typed name, braces doubled when stored
    '{user:7} rolled 5.'
    """
    if "{" not in text and "}" not in text:
        return text

    def one(found: re.Match[str]) -> str:
        if found.group(1) is None:  # a doubled brace of a typed name
            return found.group(0)[0]
        return names.get(int(found.group(1)), UNKNOWN_PLAYER)

    return _STORED.sub(one, text)


def colour_name(colour: str) -> str:
    return COLOUR_NAMES.get(colour, colour.title())


def seat_label(seat: Seat) -> str:
    return f"{seat.display_name} ({'/'.join(colour_name(c) for c in seat.colours)})"


def narrate(
    events: list[engine.Event], mover: int, names: Sequence[str], you: Collection[int] = ()
) -> str:
    """What an action did, told to one viewer: the engine players in `you` are the viewer's own
    ("You rolled 4", "Your turn"), the others go by `names`. The replay passes no `you`: it tells
    the game in the third person, in the same words as the live log.

    `mover` is the engine player who acted; `names[i]` names engine player i.

    >>> rolled = [engine.Event("rolled", 0, dice=(5,)), engine.Event("turn_passed", 1)]
    >>> narrate(rolled, 0, ["Ann", "Bo"])
    'Ann rolled 5. No move with a 5: turn passes to Bo.'
    >>> narrate(rolled, 0, ["Ann", "Bo"], you={1})
    'Ann rolled 5. No move with a 5: turn passes to you.'
    """

    def name(player: int) -> str:
        return YOU if player in you else names[player]

    return describe(events, name(mover), name)


def describe(events: list[engine.Event], mover: str, player_name: Callable[[int], str]) -> str:
    """One or two sentences for the message line and the move log.

    `mover` is the name of who acted; `player_name(i)` names the engine's player i.

    >>> describe([engine.Event("rolled", 0, dice=(3,)), engine.Event("turn_passed", 1)], "Ann",
    ...          ["Ann", "Bo"].__getitem__)
    'Ann rolled 3. No move with a 3: turn passes to Bo.'
    >>> describe([engine.Event("turn_passed", 0)], "Bo", ["You", "Bo"].__getitem__)
    'Your turn.'
    """
    name = mover
    parts: list[str] = []
    rolled: tuple[int, ...] = ()
    moved = False
    # A twodice killer "moves" to progress HOME but lands on the rival's square and leaves the board:
    # its move is not told as reaching home.
    killers = {ev.token for ev in events if ev.kind == "killed"}
    for ev in events:
        if ev.kind == "rolled":
            rolled = ev.dice or ()
            parts.append(f"{name} rolled {' and '.join(str(d) for d in rolled)}.")
        elif ev.kind == "moved" and ev.token:
            moved = True
            colour, index = ev.token
            where = _where(ev.frm, None if ev.token in killers else ev.to)
            parts.append(f"{name} moved {colour_name(colour)} {index + 1} {where}".rstrip() + ".")
        elif ev.kind == "captured" and ev.token:
            parts.append(f"{colour_name(ev.token[0])} {ev.token[1] + 1} was captured!")
        elif ev.kind == "killed" and ev.token:
            parts.append(f"{colour_name(ev.token[0])} {ev.token[1] + 1} killed and left the board.")
        elif ev.kind == "home" and ev.token:
            parts.append(f"{colour_name(ev.token[0])} {ev.token[1] + 1} is home.")
        elif ev.kind == "three_sixes":
            parts.append("Three 6s in a row: the turn ends.")
        elif ev.kind == "undone" and ev.token:
            parts.append(f"{colour_name(ev.token[0])} {ev.token[1] + 1} goes back.")
        elif ev.kind == "restored" and ev.token:
            parts.append(f"{colour_name(ev.token[0])} {ev.token[1] + 1} comes back.")
        elif ev.kind == "dice_lost" and ev.dice:
            moved = True  # said here; the turn passing needs no "no move" too
            parts.append(f"{' and '.join(str(d) for d in ev.dice)} can't be used.")
        elif ev.kind == "bonus_roll":
            parts.append("Roll again.")
        elif ev.kind == "player_finished" and ev.player is not None:
            parts.append(f"{player_name(ev.player)} finished {_ordinal(ev.place)}.")
        elif ev.kind == "turn_passed" and ev.player is not None:
            nxt = player_name(ev.player)
            if rolled and not moved:
                number = " ".join(str(d) for d in rolled)
                parts.append(f"No move with {_a(number)}: turn passes to {_object(nxt)}.")
            else:
                parts.append(f"{_possessive(nxt)} turn.")
        elif ev.kind == "game_over":
            parts.append("Game over.")
    return " ".join(parts)


# A game against the computer names its player "You": "Your turn", "passes to you", never "You's turn".
YOU = "You"


def _possessive(name: str) -> str:
    return "Your" if name == YOU else f"{name}'s"


def _object(name: str) -> str:
    return "you" if name == YOU else name


def _a(number: str) -> str:
    return f"an {number}" if number.startswith(("8", "11", "18")) else f"a {number}"


def _ordinal(place: int | None) -> str:
    n = (place or 0) + 1  # engine places are 0-based
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _where(frm: int | None, to: int | None) -> str:
    if to is None:  # where it went is told otherwise (a twodice kill)
        return "out of the yard" if frm is not None and frm < 0 else ""
    if to == 0 and (frm is None or frm < 0):
        return "out of the yard"
    if to >= engine.HOME:
        return "home"
    steps = f"by {to - frm}" if frm is not None and frm >= 0 else ""
    if to > engine.LAST_TRACK:
        return f"{steps} into the home column".strip()
    return steps
