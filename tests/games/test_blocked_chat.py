"""A blocked account's chat is not shown to the player who blocked it: in a game's log, in a line pushed
over the game's socket, and in a tournament's chat; everyone else still reads it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.test import Client

from accounts.models import User
from accounts.social.blocks import do_block, do_unblock
from games.actions import chat, pauses
from games.tournaments.chat import do_tournament_chat
from games.tournaments.registration import open_tournament
from games.web.tournament_consumer import render_chat_line
from tests.factories import accounts, member, seasoned_account, timed_room
from tests.games.webplay import page_html

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_BOT_DELAY = 60


def paused_room_with_lines():
    ann, bob = accounts("ann", "bob")
    game = timed_room(member(ann), member(bob), seconds=30)
    pauses.do_pause(game.pk, member(ann))
    chat.do_chat(game.pk, member(bob), "a rude remark")
    chat.do_chat(game.pk, member(ann), "let's keep playing")
    return game, ann, bob


def test_blocked_players_chat_lines_are_left_out_of_the_blockers_game_page():
    game, ann, bob = paused_room_with_lines()
    do_block(ann.pk, bob.pk)
    page = page_html(game, member(ann))
    assert "a rude remark" not in page and "let&#x27;s keep playing" in page
    assert "a rude remark" in page_html(game, member(bob))  # the blocked one still sees their own
    do_unblock(ann.pk, bob.pk)
    assert "a rude remark" in page_html(game, member(ann))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_blocked_players_pushed_chat_line_reaches_everyone_but_the_blocker(redis_client):
    from tests.games.test_consumers import connect, drain, session_for

    channel_layers.backends.clear()  # this test's own event loop
    game, ann, bob = await database_sync_to_async(paused_room_with_lines)()
    cat = await database_sync_to_async(User.objects.create_user)("cat")
    await database_sync_to_async(do_block)(ann.pk, bob.pk)
    sockets = {}
    for user in (ann, bob, cat):
        session = await database_sync_to_async(session_for)(user, f"key-{user.pk}")
        sockets[user.username] = await connect(game.pk, session)
    for ws in sockets.values():
        await drain(ws)

    await database_sync_to_async(chat.do_chat)(game.pk, member(bob), "another rude remark")
    for name in ("bob", "cat"):
        line = await sockets[name].receive_from(timeout=5)
        assert "another rude remark" in line
    assert await sockets["ann"].receive_nothing(timeout=0.5)  # nothing for the blocker
    for ws in sockets.values():
        await ws.disconnect()


def test_blocked_players_lines_are_left_out_of_the_blockers_tournament_chat():
    tournament = open_tournament(4, 100)
    fan, troll = seasoned_account("fan"), seasoned_account("troll")
    do_tournament_chat(tournament.pk, member(troll), "spam spam spam")
    line = do_tournament_chat(tournament.pk, member(troll), "more spam")
    do_block(fan.pk, troll.pk)
    client = Client()
    client.force_login(fan)
    assert "spam spam spam" not in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "spam spam spam" in Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert render_chat_line(tournament.pk, line.pk, fan.pk) == ""  # the live line, for the blocker
    assert "more spam" in render_chat_line(tournament.pk, line.pk, None)
