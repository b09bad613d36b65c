"""One entry point for player actions, whatever carried them (an htmx POST or a WebSocket `ws-send`):
parse the parameters with the forms, then call the `do_*` function. Bad parameters are a GameError 400.
"""

from __future__ import annotations

from typing import Any

from . import actions, forms
from .actions import chat, pauses, timers
from .actors import Actor
from .errors import GameError


def _parse(form_class, data: dict[str, Any]):
    form = form_class(data)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        where = "" if field == "__all__" else f"{field}: "
        raise GameError(f"Bad request ({where}{errors[0]})")
    return form.cleaned_data


def _roll(game_id, actor, data):
    c = _parse(forms.VersionForm, data)
    return actions.do_roll(game_id, actor, c["version"], c["seat"])


def _move(game_id, actor, data):
    c = _parse(forms.MoveForm, data)
    return actions.do_move(
        game_id, actor, c["version"], c["colour"], c["index"], c["die"], c["pair"], c["seat"]
    )


def _resign(game_id, actor, data):
    c = _parse(forms.OptionalSeatForm, data)
    return actions.do_resign(game_id, actor, c["seat"])


def _leave(game_id, actor, data):
    return actions.do_leave(game_id, actor)


def _abandon(game_id, actor, data):
    return actions.do_abandon(game_id, actor)


def _join(game_id, actor, data):
    return actions.do_join(game_id, actor)


def _start(game_id, actor, data):
    c = _parse(forms.VersionForm, data)
    return actions.do_start(game_id, actor, c["version"])


def _seat(game_id, actor, data):
    c = _parse(forms.SeatForm, data)
    return actions.do_set_seat(game_id, actor, c["seat"], c["kind"], c["level"])


def _seed(game_id, actor, data):
    c = _parse(forms.SeedForm, data)
    return actions.do_set_client_seed(game_id, actor, c["seat"], c["seed"])


def _new_round(game_id, actor, data):
    return actions.do_new_round(game_id, actor)


def _takeover(game_id, actor, data):
    c = _parse(forms.SeatIndexForm, data)
    return actions.do_replace_absent(game_id, actor, c["seat"])


def _pause(game_id, actor, data):
    return pauses.do_pause(game_id, actor)


def _resume(game_id, actor, data):
    return pauses.do_resume(game_id, actor)


def _back(game_id, actor, data):
    return timers.do_back(game_id, actor)


def _chat(game_id, actor, data):
    c = _parse(forms.ChatForm, data)
    return chat.do_chat(game_id, actor, c["text"])


def _report(game_id, actor, data):
    c = _parse(forms.ReportForm, data)
    return chat.do_report(game_id, actor, c["message"], c["reason"])


COMMANDS = {
    "roll": _roll,
    "move": _move,
    "resign": _resign,
    "leave": _leave,
    "abandon": _abandon,
    "join": _join,
    "start": _start,
    "seat": _seat,
    "seed": _seed,
    "new_round": _new_round,
    "takeover": _takeover,
    "pause": _pause,
    "resume": _resume,
    "back": _back,
    "chat": _chat,
    "report": _report,
}


def run(name: str, game_id: str, actor: Actor, data: dict[str, Any]):
    command = COMMANDS.get(name)
    if command is None:
        raise GameError("Unknown action.")
    return command(game_id, actor, data)
