"""The HTML the game page is sent: the #game-live fragment of a viewpoint (rendered once per version and
presence in each process, however many of its connections show it), the chat's pieces (the whole log, a
new message, a hidden one), and the small pieces a socket sends besides (its name, a toast).

The fragments are kept in the process (games.core.caches.FRAGMENTS), one per (game, viewpoint), under
the stamps of what they were rendered from (games.core.stamp, the push's too); only the newest is ever read again, so a new version replaces the last.
They used to be shared through Redis, but a fragment is about 30 KB: writing every one and reading it
back cost more than the renders it saved (in a two-player game most viewpoints are shown by one
connection), and a process renders a viewpoint at most once per version anyway.

The names a fragment shows are part of what it is stamped with: the move log and the message line name
accounts by reference (games.core.narration), filled in from the accounts as read for the render, so a
rename, committed in any process, changes the tag and a board rendered before it is never served after.
So do the points a finished round counted, read from the stored results: a moderator's void of them
changes the board but not the game's version.
"""

from __future__ import annotations

import re
from html import escape

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from ..core import caches, presence
from ..core.actors import Actor
from ..core.stamp import Board, board_stamp, shown_stamp
from ..models import ChatMessage, Game, Seat
from .history import display_names, history_of
from .presenter import chat_context, finished_outcomes, live_context
from .viewpoint import Viewpoint


def render_live(
    game: Game,
    vp: Viewpoint,
    *,
    oob: bool = False,
    notice: str = "",
    seats: list[Seat] | None = None,
    connected: frozenset[int] | None = None,
) -> str:
    """The #game-live fragment for `vp` (with hx-swap-oob for a WebSocket push); `connected`: the
    seats present, where a push has read them already."""
    seats = seats if seats is not None else list(game.seats.select_related("user"))
    if connected is None:
        connected = frozenset(presence.connected_seats(game.pk))
    names = display_names(game, seats, history_of(game))
    outcomes = finished_outcomes(game)
    key, tag = _cache_key(game.pk, vp), board_stamp(Board.of(game), connected)
    shows = shown_stamp(seats, names, outcomes)
    html = None if notice else _cached(key, tag, shows)
    if html is None:
        context = live_context(game, seats, vp, connected, names=names, outcomes=outcomes)
        context["notice"] = notice
        context["log_items"] = log_items(context["log"])
        html = render_to_string("games/_live.html", context)
        if not notice:
            _keep(key, tag, shows, html)
    if oob:
        html = html.replace('id="game-live"', 'id="game-live" hx-swap-oob="true"', 1)
    return html


_GROUND = re.compile(r'<g id="board-ground" data-ground="([0-9a-f]+)">')


def ground_of(html: str) -> str | None:
    """The key of the board's ground (the yards, squares and centre under the tokens) in `html`."""
    found = _GROUND.search(html)
    return found.group(1) if found else None


def for_page_showing(html: str, shown_ground: str | None) -> str:
    """The board `html` for a page that shows the ground `shown_ground` (None: unknown): if that is
    this board's ground, the ground, more than half of a board, goes as an empty placeholder that
    htmx keeps the page's own in place of (hx-preserve); else the whole board. The ground depends
    only on which colours play where, so it is the same from version to version."""
    key = ground_of(html)
    if key is None or key != shown_ground:
        return html
    markup = caches.GROUNDS.get(key)
    if markup is None:  # not made in this process (never so: the board was rendered here)
        return html
    kept = f'<g id="board-ground" data-ground="{key}" hx-preserve="true"></g>'
    return html.replace(markup, kept, 1)


def log_items(log: list[tuple[int, str, str]]) -> SafeString:
    """The move log's entries, newest first (built here: a template loop over its forty entries cost
    more than the rest of the panel)."""
    if not log:
        return mark_safe('<li class="muted">No moves yet.</li>')
    items = (f'<li class="log-{escape(kind)}">{escape(text)}</li>' for _, kind, text in log)
    return mark_safe("".join(items))  # noqa: S308  each kind and text escaped


def shared_fragment(game_id: str, vp: Viewpoint, event: dict) -> str | None:
    """The fragment another connection with viewpoint `vp` rendered for this push, if any (with the
    names as they were read for this version: a rename since is pushed after it, and every connection
    then renders afresh)."""
    tag = event.get("tag")
    if not tag:
        return None
    html = _cached(_cache_key(game_id, vp), tag)
    if html is None:
        return None
    return html.replace('id="game-live"', 'id="game-live" hx-swap-oob="true"', 1)


def _cache_key(game_id: str, vp: Viewpoint) -> str:
    """One key per game and viewpoint: each new version overwrites the fragment of the last."""
    return f"live:{game_id}:{vp.key}"


def _cached(key: str, tag: str, names: str | None = None) -> str | None:
    found = caches.FRAGMENTS.get(key)
    if found is not None and found[0] == tag and (names is None or found[1] == names):
        return found[2]
    return None


def _keep(key: str, tag: str, names: str, html: str) -> None:
    caches.keep(caches.FRAGMENTS, key, (tag, names, html))


# The CSRF token slot of each POST form in the board fragment (templates/games/_page_token.html). The
# fragment is cached and shared between viewers, so it never carries anyone's token: htmx sends the
# page's token in a header, and the full page's render fills the slots for a browser without JavaScript.
TOKEN_SLOT = '<input type="hidden" name="csrfmiddlewaretoken" value="" data-page-token>'  # noqa: S105  an empty slot, not a secret


def with_page_token(html: str, token: str) -> str:
    """The fragment for one viewer's full page: each form carries that viewer's own token."""
    return html.replace(
        TOKEN_SLOT, f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(token)}">'
    )


def render_socket_name(channel_name: str) -> str:
    """Tells the page its socket's name: its POSTs carry it, so that socket skips their version."""
    return render_to_string("games/_socket_name.html", {"channel": channel_name})


def render_toast(message: str) -> str:
    return render_to_string("games/_toast.html", {"message": message})


def render_chat_log(game: Game, seats: list[Seat], actor: Actor) -> str:
    """The whole chat log with hx-swap-oob (empty string where there is no chat)."""
    context = chat_context(game, seats, actor)
    if not context["chat_enabled"]:
        return ""
    return render_to_string("games/_chat_log.html", {**context, "oob": True})


def render_chat_message(message: ChatMessage, actor: Actor) -> str:
    """One new message, appended to the log by htmx's out-of-band swap."""
    li = render_to_string(
        "games/_chat_message.html", {"m": message, "viewer_id": actor.user_id, "reported": set()}
    )
    return f'<ol hx-swap-oob="beforeend:#chat-log">{li}</ol>'


def render_chat_hidden(message_id: int) -> str:
    """Removes a message a moderator hid from the page (htmx's out-of-band delete)."""
    return render_to_string("games/_chat_hidden.html", {"id": message_id})
