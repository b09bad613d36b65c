"""Which accounts are online, for the Friends page of those who follow them (accounts/users/online.py:
`online_among`): an account with the home page open, until its last page closes."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings

from accounts.users.online import online_among
from ludopat.asgi import application
from tests.games.test_consumers import session_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


async def page_of(user) -> WebsocketCommunicator:
    session = await database_sync_to_async(session_for)(user)
    cookie = (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())
    ws = WebsocketCommunicator(application, "/ws/online/", headers=[*ORIGIN, cookie])
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_from()  # the count
    return ws


async def test_a_followed_account_is_online_until_its_last_page_closes(
    redis_client, django_user_model
):
    channel_layers.backends.clear()  # this test's own event loop
    ann = await database_sync_to_async(django_user_model.objects.create_user)("ann")
    bob = await database_sync_to_async(django_user_model.objects.create_user)("bob")
    first, second = await page_of(ann), await page_of(ann)
    assert online_among([ann.pk, bob.pk]) == {ann.pk}
    await first.disconnect()
    assert online_among([ann.pk, bob.pk]) == {ann.pk}  # another tab of hers is still open
    await second.disconnect()
    assert online_among([ann.pk, bob.pk]) == set()
    assert online_among([]) == set()
