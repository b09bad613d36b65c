"""Every open WebSocket of an account joins the account's own group, so a moderator's ban closes them
all at once, whichever daphne process holds them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.template.loader import render_to_string

from ludopat import push
from ludopat.worker_threads import db_call

from .sanctions import ban_notice_for

# Close code of a connection ended by a moderator: the page must not reconnect.
CLOSED_BY_MODERATOR = 4403


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


async def join_user_group(consumer: Any) -> None:  # a Channels consumer
    """Call from a consumer's `connect`: an authenticated viewer's connection joins their group (the
    consumer then needs an `account_closed` handler that closes it)."""
    user = consumer.scope.get("user")
    if user is not None and user.is_authenticated:
        consumer.user_group = user_group(user.pk)
        await consumer.channel_layer.group_add(consumer.user_group, consumer.channel_name)


async def leave_user_group(consumer: Any) -> None:
    if getattr(consumer, "user_group", None):
        await consumer.channel_layer.group_discard(consumer.user_group, consumer.channel_name)


def close_user_sockets(user_id: int) -> None:
    """Ask every connection of the account to close (after commit: the ban is in the database). A
    socket the push misses can't act as the account: its sessions are gone already."""
    push.send(user_group(user_id), {"type": "account.closed"}, about=f"user {user_id}")


def send_to_account(user_id: int, html: str) -> None:
    """Push an out-of-band fragment (a notice) to every open page of the account (after commit). A
    notice is a courtesy: the page shows the same state when next loaded."""
    push.send(
        user_group(user_id), {"type": "account.notice", "html": html}, about=f"user {user_id}"
    )


def render_ban_notice(notice: str) -> str:
    """The sentence, pushed to the top of an open page's main column."""
    return render_to_string("accounts/_ban_notice.html", {"notice": notice, "oob": True})


class ClosedOnBan:
    """Consumer mixin: the `account.closed` message (sent to the account's group) tells the page that
    the account is banned, until when and why, and closes the connection with a code the page does
    not reconnect on."""

    # Given by the consumer class this is mixed into (Channels' AsyncWebsocketConsumer).
    scope: dict[str, Any]
    send: Callable[..., Awaitable[None]]
    close: Callable[..., Awaitable[None]]

    async def account_closed(self, event: dict[str, Any]) -> None:
        user = self.scope.get("user")
        notice = ""
        if user is not None and user.is_authenticated:
            notice = await db_call(ban_notice_for)(user.pk)
        await self.close_for_ban(notice)

    async def account_notice(self, event: dict[str, Any]) -> None:
        """A notice for the account (send_to_account): shown on whichever page this is."""
        await self.send(text_data=event["html"])

    async def close_for_ban(self, notice: str) -> None:
        if notice:
            await self.send(text_data=render_ban_notice(notice))
        await self.close(code=CLOSED_BY_MODERATOR)
