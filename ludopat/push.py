"""The one sender of the live pushes: every message a page gets over its WebSocket, from any app (a
game's board, chat and presence, a tournament's bracket and notices, the online count, a ban closing
an account's sockets), goes to its Channels group through `send`, or `send_on_commit` once the change
it tells of is committed. Nobody hears of a change before it is saved.

A push that fails is logged, never raised: the change is saved, and a page that missed it catches up
(a game's page sees the version gap and resyncs; other pages show the same state at their next load).
This is plumbing: it knows Channels and Redis, not what the events mean (games/core/broadcast.py
and the other senders name their groups and events).
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


def send_on_commit(group: str, event: dict[str, Any], *, about: str = "") -> None:
    """`event` to every socket in `group` once the current transaction commits (at once outside
    one; never if it rolls back). `about` names the audience in the log (the group's name if empty)."""
    transaction.on_commit(lambda: send(group, event, about=about))


def send(group: str, event: dict[str, Any], *, about: str = "") -> bool:
    """`event` to every socket in `group` now, from synchronous code; False if it could not be sent
    (no channel layer, Redis unreachable). The site's layer (ludopat/channel_layer.py) publishes from
    this thread in one round trip; another layer is driven through an event loop."""
    layer = get_channel_layer()
    publish = getattr(type(layer), "group_send_sync", None)
    if publish is None:
        try:
            return async_to_sync(send_async)(group, event, about=about)
        except Exception:  # e.g. called from an event loop's own thread: still never raised
            log.exception("could not push %s to %s", event.get("type"), about or group)
            return False
    try:
        publish(layer, group, event)
    except (OSError, RedisError) as error:
        _unreachable(error, group, event, about)
        return False
    except Exception:
        log.exception("could not push %s to %s", event.get("type"), about or group)
        return False
    return True


async def send_async(
    group: str, event: dict[str, Any], *, about: str = "", layer: BaseChannelLayer | None = None
) -> bool:
    """The async form, for consumers (which may pass the `layer` they hold); the only call of the
    channel layer's `group_send` in the site."""
    layer = layer if layer is not None else get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.group_send(group, event)
    except (OSError, RedisError) as error:
        _unreachable(error, group, event, about)
        return False
    except Exception:
        log.exception("could not push %s to %s", event.get("type"), about or group)
        return False
    return True


def _unreachable(error: BaseException, group: str, event: dict[str, Any], about: str) -> None:
    # All of Redis, or the shard of this group (CHANNEL_LAYER_REDIS_URLS), is gone: a game's open
    # pages are closed and reconnect (games/web/consumers.py) and resync when it is back.
    log.warning(
        "channel layer unreachable (%s): could not push %s to %s",
        error,
        event.get("type"),
        about or group,
    )
