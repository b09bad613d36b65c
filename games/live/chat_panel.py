"""The chat panel of the game page: what it shows a viewer, and the pieces of it a socket sends (the
whole log on a resync, one new message, a message a moderator hid)."""

from __future__ import annotations

from django.template.loader import render_to_string

from accounts.moderation import mute_notice_for

from .. import actors, selectors
from ..actions import chat
from ..actors import Actor
from ..models import ChatMessage, Game, Seat


def chat_context(game: Game, seats: list[Seat], actor: Actor) -> dict:
    """What the chat panel needs (game.html, and the WebSocket's whole-log resync)."""

    # Every room with two or more places for people shows the panel, from the waiting room on (the page
    # around the live board is not re-rendered when guests arrive); the service decides who may write.
    people_places = sum(1 for s in seats if s.kind in (Seat.Kind.HUMAN, Seat.Kind.OPEN))
    enabled = game.mode == Game.Mode.FRIENDS and people_places >= 2
    return {
        "game": game,
        "chat_enabled": enabled,
        "chat_open": chat.chat_open(game),
        "chat_player": bool(actors.seats_of(game, seats, actor)),
        "chat_messages": selectors.chat_messages(game) if enabled else [],
        "viewer_id": actor.user_id,
        "reported": selectors.reported_by(game, actor) if enabled else set(),
        # A muted player sees until when and why before they type.
        "muted": mute_notice_for(actor.user_id) if enabled else "",
    }


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
