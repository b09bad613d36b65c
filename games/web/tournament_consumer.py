"""The bracket page's WebSocket: one consumer per open bracket page, in the tournament's group
(games.tournaments.live) and the viewer's account group (a ban closes it; a tournament's notices reach
it). On every `bracket.update` newer than what it sent, it sends the bracket fragment, which htmx's ws
extension swaps in (`hx-swap-oob`); on connect it sends the current one, so a page that missed
versions catches up."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from accounts.users.sockets import ClosedOnBan, join_user_group, leave_user_group
from ludopat.frame_limit import ABUSE_CLOSE_CODE, new_bucket
from ludopat.worker_threads import db_call

from ..tournaments import reads
from ..tournaments.live import bracket_group
from ..tournaments.models import Tournament

REFUSED = 4404  # no such tournament: the page must not retry


def render_bracket(tournament_id: int) -> tuple[int, str] | None:
    """(version, the bracket's live fragment), or None if there is no such tournament."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    html = render_to_string(
        "games/tournaments/_bracket.html",
        {"view": reads.bracket(tournament), "t": tournament, "oob": True},
    )
    return tournament.version, html


class TournamentConsumer(ClosedOnBan, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.frames = new_bucket()
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.sent_version = -1
        first = await db_call(render_bracket)(self.tournament_id)
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

    async def _send(self, version: int, html: str) -> None:
        if version > self.sent_version:
            self.sent_version = version
            await self.send(text_data=html)
