"""The bracket page's WebSocket: one consumer per open bracket page, in the tournament's group
(games.tournaments.live) and the viewer's account group (a ban closes it; a tournament's notices reach
it). On every `bracket.update` newer than what it sent, it sends the bracket fragment (one render per
version and process, shared by every viewer) and the viewer's own part (their match to play, or where
they stand), which htmx's ws extension swaps in (`hx-swap-oob`); on connect it sends the current
ones, so a page that missed versions catches up. A `bracket.score` (a token reached home in a match)
sends only that match's score. A `chat.message` sends the chat's new line, rendered for the viewer
(a Report button on others' lines; nothing to a banned account); a `chat.hidden` removes one."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from accounts.social.reads import hides_lines_of
from accounts.users.sanctions import ban_in_force
from accounts.users.sockets import ClosedOnBan, join_user_group, leave_user_group
from ludopat.frame_limit import ABUSE_CLOSE_CODE, new_bucket
from ludopat.worker_threads import db_call

from ..live.fragments import render_chat_hidden
from ..models import ChatMessage
from ..tournaments import reads
from ..tournaments.live import bracket_group
from ..tournaments.models import Tournament

REFUSED = 4404  # no such tournament: the page must not retry

# {tournament id: (version, created, fragment)}: the latest bracket this process rendered, for every
# viewer (`created` tells apart a tournament that reuses an id, as a test database's do).
_rendered: dict[int, tuple[int, object, str]] = {}


def render_bracket(tournament_id: int, shared: bool = True) -> tuple[int, str] | None:
    """(version, the bracket's live fragment), or None if there is no such tournament. `shared`: the
    fragment this process rendered for the version will do (a push, just after the version moved);
    a page connecting gets a fresh one, since the scores in play move without a new version."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    kept = _rendered.get(tournament_id)
    if shared and kept is not None and kept[:2] == (tournament.version, tournament.created):
        return tournament.version, kept[2]
    html = render_to_string(
        "games/tournaments/_bracket.html",
        {"view": reads.bracket(tournament), "t": tournament, "oob": True},
    )
    _rendered[tournament_id] = (tournament.version, tournament.created, html)
    return tournament.version, html


def render_mine(tournament_id: int, user_id: int | None) -> str:
    """The viewer's own part of the page ("" for a spectator: nothing of theirs to change)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    me = reads.my_part(tournament, user_id) if tournament is not None else None
    if me is None:
        return ""
    return render_to_string("games/tournaments/_mine.html", {"me": me, "oob": True})


def render_score(tournament_id: int, match: str, scores: list[int]) -> str:
    round_, slot = (int(part) for part in match.split("-"))
    where = {"tournament_id": tournament_id, "round": round_, "slot": slot}
    return "".join(
        render_to_string(
            "games/tournaments/_score.html",
            {"match": where, "index": index, "score": score, "oob": True},
        )
        for index, score in enumerate(scores)
    )


def render_chat_line(tournament_id: int, message_id: int, user_id: int | None) -> str:
    """One new line of the tournament's chat, appended to the log ("" if hidden, by an account the
    viewer blocked, or for a banned viewer, who gets no chat)."""
    message = ChatMessage.objects.filter(
        pk=message_id, tournament_id=tournament_id, hidden_at__isnull=True
    ).first()
    if message is None or hides_lines_of(user_id, message.user_id):
        return ""  # hidden, or by an account this viewer blocked
    if user_id is not None:
        viewer = get_user_model().objects.filter(pk=user_id).first()
        if viewer is None or ban_in_force(viewer):
            return ""
    li = render_to_string(
        "games/_chat_message.html", {"m": message, "viewer_id": user_id, "reported": set()}
    )
    return f'<ol hx-swap-oob="beforeend:#chat-log">{li}</ol>'


class TournamentConsumer(ClosedOnBan, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.frames = new_bucket()
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.sent_version = -1
        first = await db_call(render_bracket)(self.tournament_id, shared=False)
        if first is None:
            await self.close(code=REFUSED)
            return
        self.group = bracket_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await join_user_group(self)
        await self.accept()
        await self._send(*first)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await leave_user_group(self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Only heartbeats come in: a client sending far more is closed (ludopat/frame_limit.py).
        if not self.frames.take():
            await self.close(code=ABUSE_CLOSE_CODE)

    async def bracket_update(self, event: dict[str, Any]) -> None:
        if event["version"] <= self.sent_version:
            return
        fresh = await db_call(render_bracket)(self.tournament_id)
        if fresh is not None:
            await self._send(*fresh)

    async def bracket_score(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_score(self.tournament_id, event["match"], event["scores"]))

    async def chat_message(self, event: dict[str, Any]) -> None:
        html = await db_call(render_chat_line)(self.tournament_id, event["id"], self.user_id)
        if html:
            await self.send(text_data=html)

    async def chat_hidden(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_chat_hidden(int(event["id"])))

    async def _send(self, version: int, html: str) -> None:
        if version > self.sent_version:
            self.sent_version = version
            if self.user_id is not None:
                html += await db_call(render_mine)(self.tournament_id, self.user_id)
            await self.send(text_data=html)
