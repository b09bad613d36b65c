"""What players notice at once over the game's WebSocket (the real Redis channel layer): a hidden
message leaves every open page, a void ends the round on both boards with its reason, a ban closes the
banned player's game page."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers

from accounts.moderation import bans
from accounts.moderation.chat import do_hide_message
from accounts.moderation.voids import do_void
from accounts.users.sockets import CLOSED_BY_MODERATOR
from games.actions import chat
from games.core import selectors
from games.models import ChatMessage
from tests.accounts.moderation.conftest import staff
from tests.games.test_consumers import connect, session_for
from tests.games.webplay import member
from tests.integration.test_chat import next_matching, paused_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def fresh_layer(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60
    channel_layers.backends.clear()  # a layer made in another test's event loop can't be reused


async def pages(game, alice, bob):
    a = await connect(game.pk, await database_sync_to_async(session_for)(alice, "key-a"))
    b = await connect(game.pk, await database_sync_to_async(session_for)(bob, "key-b"))
    return a, b


async def test_a_hidden_message_vanishes_from_every_open_page(django_user_model):
    game, alice, bob = await paused_room()
    a, b = await pages(game, alice, bob)
    message = await database_sync_to_async(chat.do_chat)(game.pk, member(bob), "rude words")
    await next_matching(a, "rude words")
    moderator = await database_sync_to_async(staff)(django_user_model, "mod", "Moderator")
    await database_sync_to_async(do_hide_message)(moderator, message, reason="Insult")
    for ws in (a, b):
        gone = await next_matching(ws, 'hx-swap-oob="delete"')
        assert f'id="chat-{message.pk}"' in gone
    # ... and it is not in the log a page gets when it (re)loads.
    shown = await database_sync_to_async(selectors.chat_messages)(game)
    assert message.pk not in [m.pk for m in shown]
    assert await database_sync_to_async(ChatMessage.objects.filter(pk=message.pk).exists)()
    for ws in (a, b):
        await ws.disconnect()


async def test_a_void_ends_the_round_on_both_boards_with_the_reason(django_user_model):
    game, alice, bob = await paused_room()
    a, b = await pages(game, alice, bob)
    boss = await database_sync_to_async(staff)(django_user_model, "boss", "Admin")
    await database_sync_to_async(do_void)(boss, game.pk, reason="Reported cheating")
    for ws in (a, b):
        board = await next_matching(ws, "voided")
        assert "A moderator voided this round: Reported cheating" in board
    for ws in (a, b):
        await ws.disconnect()


async def test_a_ban_closes_the_players_game_page(django_user_model):
    game, alice, bob = await paused_room()
    a, b = await pages(game, alice, bob)
    moderator = await database_sync_to_async(staff)(django_user_model, "mod", "Moderator")
    await database_sync_to_async(bans.do_ban)(moderator, bob, reason="Threats")
    while True:
        output = await b.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == CLOSED_BY_MODERATOR
    await next_matching(a, "bob resigned. alice wins!")  # the ban gave the round up for bob
    await a.disconnect()
