"""One entry point for player actions, whatever carried them (an htmx POST or a WebSocket `ws-send`):
check who is asking, parse the parameters with the forms, then call the `do_*` function. Bad parameters
are a GameError 400.

Who is asking is checked first, without the game's row lock: someone with no seat in the game (a
spectator, a stranger with the link) is refused before any `do_*` function takes the lock, so a flood of
their requests never queues behind, or ahead of, the players' moves. The `do_*` functions check again
under the lock (a seat may have changed hands in between), and refuse an account banned since the
request was authenticated or the socket connected (`actors.refuse_banned`). So the first check may
read the seats as they were at the version the action names, where that is the newest this process
kept (`seen_for`): a roll or a move costs no read before its lock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms as django_forms

from accounts.moderation import reports
from ludopat.numbers import parse_int

from .. import actions
from ..actions import chat, pauses, timers
from ..actions.core import NO_GAME
from ..core import selectors
from ..core.actors import Actor, owns, seats_of
from ..core.errors import GameError, GameNotFound, NotAllowed
from ..models import Game, Seat
from . import forms

WATCHING = "You are watching this game; only its players can do that."


class NoParameters(forms.ParametersForm):
    """For actions that take none: whatever else a client sends is ignored."""


@dataclass(frozen=True)
class Command:
    """An action: the form its parameters must pass, the call, and whether people with no seat in the
    game may send it at all (only `join`). `call(game_id, actor, parameters)` gets the form's
    cleaned data."""

    form: type[django_forms.BaseForm]
    call: Callable[..., Any]
    open_to_watchers: bool = False


def parsed(form_class: type[django_forms.BaseForm], data: dict[str, Any]) -> dict[str, Any]:
    return cleaned(form_class(data))


def cleaned(form: django_forms.BaseForm) -> dict[str, Any]:
    """The form's cleaned data, or a refusal naming its first bad field."""
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        where = "" if field == "__all__" else f"{field}: "
        raise GameError(f"Bad request ({where}{errors[0]})")
    return form.cleaned_data


COMMANDS: dict[str, Command] = {
    "roll": Command(
        forms.VersionForm, lambda g, a, c: actions.do_roll(g, a, c["version"], c["seat"])
    ),
    "move": Command(
        forms.MoveForm,
        lambda g, a, c: actions.do_move(
            g, a, c["version"], c["colour"], c["index"], c["die"], c["pair"], c["seat"]
        ),
    ),
    "resign": Command(forms.OptionalSeatForm, lambda g, a, c: actions.do_resign(g, a, c["seat"])),
    "leave": Command(
        forms.VersionForm, lambda g, a, c: actions.do_leave(g, a, version=c["version"])
    ),
    "abandon": Command(NoParameters, lambda g, a, c: actions.do_abandon(g, a)),
    "join": Command(NoParameters, lambda g, a, c: actions.do_join(g, a), open_to_watchers=True),
    "start": Command(forms.VersionForm, lambda g, a, c: actions.do_start(g, a, c["version"])),
    "seat": Command(
        forms.SeatForm,
        lambda g, a, c: actions.do_set_seat(g, a, c["seat"], c["kind"], c["level"]),
    ),
    "seed": Command(
        forms.SeedForm, lambda g, a, c: actions.do_set_client_seed(g, a, c["seat"], c["seed"])
    ),
    "new_round": Command(NoParameters, lambda g, a, c: actions.do_new_round(g, a)),
    "takeover": Command(
        forms.SeatIndexForm, lambda g, a, c: actions.do_replace_absent(g, a, c["seat"])
    ),
    "pause": Command(NoParameters, lambda g, a, c: pauses.do_pause(g, a)),
    "resume": Command(NoParameters, lambda g, a, c: pauses.do_resume(g, a)),
    "back": Command(NoParameters, lambda g, a, c: timers.do_back(g, a)),
    "chat": Command(forms.ChatForm, lambda g, a, c: chat.do_chat(g, a, c["text"])),
    "report": Command(
        forms.ReportForm,
        lambda g, a, c: reports.do_report_message(
            g, a, message_id=c["message"], reason=c["reason"]
        ),
    ),
}


def check_asker(actor: Actor, command: Command, seen: tuple[Game | None, list[Seat]]) -> None:
    """Refuse, without locking anything, someone who has no seat in the game and is not its owner
    (`seen`: the game and its seats as `seen_for` gives them)."""
    game, seats = seen
    if game is None:
        raise GameNotFound(NO_GAME)
    if command.open_to_watchers or owns(game, actor):
        return
    if not seats_of(game, seats, actor):
        raise NotAllowed(WATCHING)


def seen_for(game_id: str, data: dict[str, Any]) -> tuple[Game | None, list[Seat]]:
    """The game and its seats for the checks before the lock of an action with parameters `data`: at
    the version it names, where that is the newest this process kept, else read
    (selectors.game_and_seats_named)."""
    return selectors.game_and_seats_named(game_id, parse_int(data.get("version"), 0))


def run(
    name: str,
    game_id: str,
    actor: Actor,
    data: dict[str, Any],
    seen: tuple[Game | None, list[Seat]] | None = None,
) -> Any:
    """Run action `name` for `actor` with parameters `data` (`seen`: the game and seats the caller
    read for the asker check, as `seen_for` gives them; read here if None)."""
    command = COMMANDS.get(name)
    if command is None:
        raise GameError("Unknown action.")
    check_asker(actor, command, seen if seen is not None else seen_for(game_id, data))
    return command.call(game_id, actor, parsed(command.form, data))
