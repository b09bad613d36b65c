"""The chat of a timed room over the game's real WebSocket (ASGI app, Redis channel layer): opened by a
pause, delivered live and escaped, length and rate limits, reports, mutes."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.moderation.models import Report
from games import actions
from games.actions import SeatSpec, TimerSpec, pauses
from games.models import ChatMessage, Seat
from tests.games.test_consumers import connect, session_for
from tests.games.webplay import SEED, everyone_here, fresh, member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.slow]


@pytest.fixture(autouse=True)
def settings_for_chat(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60
    channel_layers.backends.clear()  # a layer made in another test's event loop can't be reused


@database_sync_to_async
def paused_room():
    users = get_user_model().objects
    alice, bob = users.create_user("alice"), users.create_user("bob")
    game = actions.create_game(
        member(alice),
        "friends",
        "twodice",
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(30, 2, 120),
    )
    actions.do_join(game.pk, member(bob))
    everyone_here(game)
    actions.do_start(game.pk, member(alice))
    pauses.do_pause(game.pk, member(bob))
    return fresh(game), alice, bob


async def next_matching(ws, needle: str, timeout: float = 3.0) -> str:
    while True:
        text = await ws.receive_from(timeout=timeout)
        if needle in text:
            return text


async def say(ws, text: str) -> None:
    await ws.send_to(text_data=json.dumps({"action": "chat", "text": text}))


async def test_chat_is_live_escaped_limited_reportable_and_mutable():
    game, alice, bob = await paused_room()
    a = await connect(game.pk, await database_sync_to_async(session_for)(alice, "key-a"))
    b = await connect(game.pk, await database_sync_to_async(session_for)(bob, "key-b"))
    # Whoever reconnects gets the whole log (empty now) with the board.
    await b.send_to(text_data=json.dumps({"resync": 0}))
    await next_matching(b, 'id="chat-log"')

    await say(a, "<img src=x onerror=alert(1)> hi\u200b\u0007")
    html = await next_matching(b, "beforeend:#chat-log")
    assert 'hx-swap-oob="beforeend:#chat-log"' in html
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt; hi</span>" in html
    assert 'data-testid="report-' in html  # bob may report alice's message
    message = await database_sync_to_async(ChatMessage.objects.get)(game=game)
    assert message.text == "<img src=x onerror=alert(1)> hi"

    await say(b, "x" * 201)
    toast = await next_matching(b, "toast")
    assert "at most 200 characters" in toast

    for n in range(4):
        await say(a, f"message {n}")
    await say(a, "one too many")
    toast = await next_matching(a, "toast-error")
    assert "too fast" in toast
    assert await database_sync_to_async(ChatMessage.objects.filter(game=game).count)() == 5

    # A report from the page's button (an htmx POST), stored once.
    @database_sync_to_async
    def report():
        client = Client()
        client.force_login(bob)
        url = f"/games/{game.pk}/report"
        for _ in range(2):
            response = client.post(url, {"message": message.pk}, HTTP_HX_REQUEST="true")
            assert response.status_code == 200
        return Report.objects.filter(message=message, reporter=bob).count()

    assert await report() == 1

    @database_sync_to_async
    def mute():
        until = timezone.now() + timedelta(hours=1)
        get_user_model().objects.filter(pk=bob.pk).update(muted_until=until, mute_reason="Spam")

    await mute()
    await say(b, "hello?")
    toast = await next_matching(b, "toast")
    assert "Muted until" in toast and "Spam" in toast  # when it ends and why
    assert not await database_sync_to_async(
        ChatMessage.objects.filter(game=game, user=bob, text="hello?").exists
    )()
    for ws in (a, b):
        await ws.disconnect()
