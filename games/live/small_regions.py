"""The message line, the move log, fair dice and the players' buttons (#live-message, #live-log,
#live-fair, #live-controls): rendered for every version, and mostly as the last version showed them.

The message line and the log are a few lines of markup around text that changes with each action:
built here (the template engine took 0.03 to 0.08 ms for each). Fair dice and the buttons change
only at a round's first roll, its end, a vote or a game's end: their templates render once per set of
what they read (`_inputs_*`, kept by the process), not once per version; the templates stay their
markup's one source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.html import conditional_escape

from ..core.lru import Recent

WAITING_SEATED = "You're seated: the host starts the game when everyone is here."
WAITING_WATCHER = "Waiting for the host to start the game."


def message_region(context: dict[str, Any]) -> str:
    """The line everyone reads, with a refusal's notice before it (one answer's, never kept)."""
    vp, notice = context["vp"], context.get("notice")
    shown = (
        f'<strong class="notice" data-testid="notice">{conditional_escape(notice)}</strong> '
        if notice
        else ""
    )
    if context["host_message"] and not vp.host:
        shown += WAITING_SEATED if vp.is_player else WAITING_WATCHER
    else:
        shown += str(conditional_escape(context["message"]))
    return (
        '<div id="live-message" class="live-region">      <p class="message-line"'
        ' id="game-message" data-testid="message" role="status" aria-live="polite">'
        f"{shown}</p></div>"
    )


def log_region(context: dict[str, Any]) -> str:
    """The move log around its entries (`log_items`, escaped where they are built)."""
    return (
        '<div id="live-log" class="live-region">      <details class="panel log-panel" open>\n'
        "        <summary>Moves</summary>\n"
        '        <ol class="move-log" data-testid="move-log" aria-label="Move log" tabindex="0">\n'
        f"          {context['log_items']}\n"
        "        </ol>\n"
        "      </details></div>"
    )


# Rendered regions by what their template read: a few KB each, a few per live game.
_RENDERED: Recent[tuple, str] = Recent(4096)


def kept_region(name: str, context: dict[str, Any], render: Callable[[], str]) -> str:
    """The region `name` for `context`, `render`ed (its template, by games.live.fragments) once per
    set of what it reads."""
    inputs = _INPUTS[name](context)
    if inputs is None:  # reads more than is listed (a finished tournament match): rendered
        return render()
    key = (name, *inputs)
    html = _RENDERED.get(key)
    if html is None:
        html = render()
        _RENDERED.put(key, html)
    return html


def _inputs_fair(context: dict[str, Any]) -> tuple | None:
    game, urls = context["game"], context["urls"]
    seats: tuple[tuple[Any, ...], ...] = ()
    if context["seed_editable"]:
        seats = tuple((s.index, s.display_name, s.client_seed) for s in context["my_seed_seats"])
    over = game.is_over
    return (
        game.pk,
        game.server_seed_sha256,
        over,
        game.server_seed if over else "",
        game.client_seed,
        context["seed_editable"],
        seats,
        urls["seed"],
        urls["record"],
        tuple(context["rounds"]),
    )


def _inputs_controls(context: dict[str, Any]) -> tuple | None:
    game, vp, urls = context["game"], context["vp"], context["urls"]
    status = game.status
    if game.in_tournament and status == game.Status.FINISHED:
        return None  # its match's link: a query of the template's own
    return (
        vp.is_player,
        status,
        bool(context["votes"]),
        context["my_vote"],
        game.in_tournament,
        bool(game.stake),
        game.public,
        urls["new_round"],
        urls["resign"],
        context["new_round_confirm"],
    )


_INPUTS = {"fair": _inputs_fair, "controls": _inputs_controls}
KEPT = frozenset(_INPUTS)
