"""A challenge reaches the challenged player's every open page: each page of a signed-in player has one
socket in the account's group (base.html's account socket, or the page's own), through the real Redis
channel layer."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings

from accounts.social.blocks import do_block
from games.challenges.answers import do_decline
from games.core.errors import NotAllowed
from ludopat.asgi import application
from tests.factories import member
from tests.games.test_consumers import HOST, session_for

from .helpers import challenge, player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def fresh_layer(redis_client):
    channel_layers.backends.clear()  # each async test has its own event loop


async def account_socket(session_key: str | None, expect: bool = True):
    headers = list(HOST)
    if session_key:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
    ws = WebsocketCommunicator(application, "/ws/account/", headers=headers)
    connected, code = await ws.connect()
    assert connected is expect, code
    return ws


async def test_a_challenge_and_its_answer_reach_both_players_open_pages():
    ann, ben = await database_sync_to_async(lambda: (player("ann"), player("ben")))()
    ann_page = await account_socket(await database_sync_to_async(session_for)(ann))
    ben_pages = [
        await account_socket(await database_sync_to_async(session_for)(ben)) for _ in range(2)
    ]

    made = await database_sync_to_async(challenge)(ann, ben)
    for page in ben_pages:  # every page of ben's: the offer with its buttons
        offer = await page.receive_from(timeout=3)
        assert "ann challenges you" in offer and "Accept" in offer and "Decline" in offer
        assert 'hx-swap-oob="afterbegin:#account-notices"' in offer
    assert await ann_page.receive_nothing(timeout=0.2)

    await database_sync_to_async(do_decline)(member(ben), made.pk)
    assert "ben declined your challenge" in await ann_page.receive_from(timeout=3)
    for page in ben_pages:
        assert "You declined ann&#x27;s challenge" in await page.receive_from(timeout=3)
    for ws in (ann_page, *ben_pages):
        await ws.disconnect()


async def test_a_blocked_challenge_reaches_no_page():
    ann, ben = await database_sync_to_async(lambda: (player("ann"), player("ben")))()
    ben_page = await account_socket(await database_sync_to_async(session_for)(ben))
    await database_sync_to_async(do_block)(ben.pk, ann.pk)
    with pytest.raises(NotAllowed):
        await database_sync_to_async(challenge)(ann, ben)
    assert await ben_page.receive_nothing(timeout=0.3)
    await ben_page.disconnect()


async def test_a_visitor_has_no_account_socket():
    await account_socket(None, expect=False)
