"""The one place that pushes to a game's viewers, always after the change is committed.

Actions queue these with `transaction.on_commit`; consumers call the async forms. Each event names what
changed and carries no HTML: every consumer renders its own viewer's fragment (shared per version and
viewpoint through games.render). A push that fails is logged, never raised: the change is saved, and a
viewer whose page missed a version sees the gap and resyncs.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: str) -> str:
    """The channel group of everyone viewing a game."""
    return f"game.{game_id}"


def board_changed(game_id: str, version: int) -> None:
    """Version `version` of the game exists: every viewer gets its board."""
    _send(game_id, {"type": "game.update", "version": version})


def chat_message(game_id: str, message_id: int) -> None:
    """A chat message was stored: every viewer gets it."""
    _send(game_id, {"type": "chat.message", "id": message_id})


def chat_hidden(game_id: str, message_id: int) -> None:
    """A moderator hid a chat message: every viewer's page removes it."""
    _send(game_id, {"type": "chat.hidden", "id": message_id})


def presence_event() -> dict[str, Any]:
    """Someone connected or left: the players' cards show who is here (no new version)."""
    return {"type": "game.update", "version": -1, "presence": True}


async def presence_changed(layer, game_id: str) -> None:
    """The async form for consumers, which hold their channel layer."""
    try:
        await layer.group_send(group_name(game_id), presence_event())
    except Exception:
        log.exception("could not push presence of game %s", game_id)


def _send(game_id: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), event)
    except Exception:  # a viewer resyncs on its next connection or gap; the change is saved
        log.exception("could not push %s to game %s", event["type"], game_id)
