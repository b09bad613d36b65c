"""A banned player is told that they are banned, until when and why: on their open pages at once, at
their browser's next request, and at log-in once the password was right (a wrong password gets the
usual answer, so nobody learns which accounts exist or are banned)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import bans
from accounts.users import sanctions
from accounts.users.sockets import CLOSED_BY_MODERATOR
from ludopat.asgi import application
from tests.games.test_consumers import HOST, connect, session_for
from tests.games.webplay import everyone_here, friends_room, member

from .conftest import PASSWORD, logged_in, staff

WRONG = "Please enter a correct username and password"


def log_in(username: str, password: str) -> str:
    answer = Client().post(reverse("login"), {"username": username, "password": password})
    assert answer.status_code == 200  # not logged in either way
    return answer.content.decode()


@pytest.mark.django_db
def test_log_in_tells_a_banned_player_only_once_the_password_is_right(
    player, moderator, django_user_model
):
    until = timezone.now() + timedelta(days=2)
    bans.do_ban(moderator, player, reason="Insults in chat", until=until)
    page = log_in("troll", PASSWORD)
    assert f"banned until {sanctions.when(until)}" in page
    assert "Insults in chat" in page and WRONG not in page

    page = log_in("troll", "not-the-password")  # no account enumeration
    assert WRONG in page and "banned" not in page

    for_good = django_user_model.objects.create_user("spammer", password=PASSWORD)
    bans.do_ban(moderator, for_good, reason="Spam links")
    page = log_in("spammer", PASSWORD)
    assert "Your account is banned: Spam links" in page


@pytest.mark.django_db
def test_the_next_page_a_banned_players_browser_asks_for_says_why(player, moderator):
    browser = logged_in(player)
    assert browser.get("/").status_code == 200
    bans.do_ban(moderator, player, reason="Threats")
    page = browser.get("/").content.decode()
    assert "Your account is banned: Threats" in page
    # ... until the ban is lifted.
    bans.do_unban(moderator, player, reason="Appeal accepted")
    assert "banned" not in browser.get("/").content.decode()


async def until_closed(ws) -> tuple[list[str], int]:
    texts = []
    while True:
        output = await ws.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            return texts, output.get("code")
        texts.append(output.get("text", ""))


@pytest.fixture
def sockets(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60
    channel_layers.backends.clear()  # a layer made in another test's event loop can't be reused


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_open_game_page_says_why_and_no_longer_offers_a_turn(django_user_model, sockets):
    @database_sync_to_async
    def alices_turn():
        alice = django_user_model.objects.create_user("alice")
        bob = django_user_model.objects.create_user("bob")
        game = friends_room(member(alice), [member(bob)])
        everyone_here(game)
        return game, alice, staff(django_user_model, "mod", "Moderator")

    game, alice, moderator = await alices_turn()
    ws = await connect(game.pk, await database_sync_to_async(session_for)(alice, "key-a"))
    assert any("is-my-turn" in text for text in ws.pending)
    await database_sync_to_async(bans.do_ban)(moderator, alice, reason="Threats")
    texts, code = await until_closed(ws)
    await ws.disconnect()
    assert code == CLOSED_BY_MODERATOR
    assert any("Your account is banned: Threats" in text for text in texts)
    boards = [text for text in texts if 'id="game-live"' in text]
    assert boards and "is-my-turn" not in boards[-1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_any_other_open_page_says_why(player, moderator, sockets):
    key = await database_sync_to_async(session_for)(player)
    cookie = (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode())
    ws = WebsocketCommunicator(application, "/ws/online/", headers=[*HOST, cookie])
    assert (await ws.connect())[0]
    until = timezone.now() + timedelta(hours=3)
    await database_sync_to_async(bans.do_ban)(moderator, player, reason="Cool off", until=until)
    texts, code = await until_closed(ws)
    await ws.disconnect()
    assert code == CLOSED_BY_MODERATOR
    assert any(f"banned until {sanctions.when(until)}: Cool off" in text for text in texts)
