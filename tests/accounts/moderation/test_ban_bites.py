"""After a ban commits, nothing is played in the banned account's name, whatever carried the command:
a POST that was authenticated before the ban, or a game page's WebSocket whose close message never
arrived (a Redis error while closing, a ban landing between the socket's identify and its joining the
account's group, the channel layer's Redis unreachable as the ban's push was published)."""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client

from accounts.moderation import bans
from accounts.users.sockets import CLOSED_BY_MODERATOR, user_group
from games.core.actors import PLAYER_KEY, Actor
from games.models import Action, Game, Seat
from ludopat import throttle
from tests.games.test_consumers import connect, session_for
from tests.games.webplay import (
    computer_game,
    everyone_here,
    fresh,
    friends_room,
    local_game,
    member,
)
from tests.integration.test_chat import next_matching

from .conftest import PASSWORD, logged_in, staff

HTMX = {"HTTP_HX_REQUEST": "true"}


def played_by_people(game: Game) -> list[Action]:
    """Rolls and moves a person sent (not the computer playing their seat)."""
    return list(
        Action.objects.filter(game=game, kind__in=[Action.Kind.ROLL, Action.Kind.MOVE], auto="")
    )


@pytest.mark.django_db
def test_a_post_authenticated_before_the_ban_committed_plays_nothing(
    django_user_model, moderator, monkeypatch, settings, redis_client
):
    settings.LUDOPAT_BOT_DELAY = 60
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    browser = logged_in(alice)
    game = computer_game(member(alice))
    assert browser.get(f"/games/{game.pk}/").status_code == 200  # the page (and its browser key)

    real = throttle.allow_action

    def ban_lands_now(game_id, asker, also=None):  # the ban commits while the request is on its way
        bans.do_ban(moderator, alice, reason="Cheating")
        return real(game_id, asker, also)

    monkeypatch.setattr(throttle, "allow_action", ban_lands_now)
    answer = browser.post(f"/games/{game.pk}/roll", {"version": fresh(game).version}, **HTMX)
    assert answer.status_code == 403
    assert "banned" in answer.content.decode()
    assert played_by_people(game) == []


async def channel_of(ws) -> str:
    """The socket's channel name, which the page learns on connect."""
    for message in ws.pending:
        found = re.search(r'data-channel="([^"]+)"', message)
        if found:
            return found.group(1)
    raise AssertionError("the socket did not say its name")


async def refusal_and_close(ws) -> tuple[list[str], int | None]:
    """What the socket says until it closes, and the close code (None: it stayed open)."""
    texts = []
    while True:
        try:
            output = await ws.receive_output(timeout=3)
        except TimeoutError:
            return texts, None
        if output["type"] == "websocket.close":
            return texts, output.get("code")
        texts.append(output.get("text", ""))


@pytest.fixture
def sockets(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60  # the computer does not play the banned seat during the test
    channel_layers.backends.clear()  # a layer made in another test's event loop can't be reused


@database_sync_to_async
def running_game(django_user_model):
    alice = django_user_model.objects.create_user("alice")
    bob = django_user_model.objects.create_user("bob")
    moderator = staff(django_user_model, "mod", "Moderator")
    game = friends_room(member(alice), [member(bob)])
    everyone_here(game)  # nobody is waited for
    return game, alice, bob, moderator


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_open_socket_whose_close_message_was_lost_plays_nothing(
    django_user_model, sockets
):
    game, alice, _bob, moderator = await running_game(django_user_model)
    ws = await connect(game.pk, await database_sync_to_async(session_for)(alice, "key-a"))
    # The socket is out of the account's group, so the ban's close message never reaches it.
    await get_channel_layer().group_discard(user_group(alice.pk), await channel_of(ws))
    await database_sync_to_async(bans.do_ban)(moderator, alice, reason="Threats")

    version = (await database_sync_to_async(fresh)(game)).version
    await ws.send_to(text_data=json.dumps({"action": "roll", "version": version}))
    texts, closed = await refusal_and_close(ws)
    await ws.disconnect()
    assert await database_sync_to_async(played_by_people)(game) == []
    seat = await database_sync_to_async(Seat.objects.get)(game=game, user=alice)
    assert seat.bot_controlled  # the computer keeps the seat the ban gave it
    assert any("banned" in text for text in texts)
    assert closed == CLOSED_BY_MODERATOR


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_banned_account_can_not_take_a_seat_from_an_open_page(django_user_model, sockets):
    @database_sync_to_async
    def open_room():
        host = django_user_model.objects.create_user("host")
        carol = django_user_model.objects.create_user("carol")
        moderator = staff(django_user_model, "mod", "Moderator")
        return friends_room(member(host), start=False), carol, moderator

    game, carol, moderator = await open_room()
    ws = await connect(game.pk, await database_sync_to_async(session_for)(carol, "key-c"))
    await get_channel_layer().group_discard(user_group(carol.pk), await channel_of(ws))
    await database_sync_to_async(bans.do_ban)(moderator, carol, reason="Spam")

    await ws.send_to(text_data=json.dumps({"action": "join"}))
    texts, closed = await refusal_and_close(ws)
    await ws.disconnect()
    taken = await database_sync_to_async(Seat.objects.filter(game=game, user=carol).exists)()
    assert not taken
    assert any("banned" in text for text in texts)
    assert closed == CLOSED_BY_MODERATOR


# --- sessions from before the session index ---------------------------------------------------------


def old_log_in(user, key: str) -> str:
    """A session from a log-in made before the session index existed: it holds the account and the
    browser key, and the index has no row for it."""
    return session_for(user, key)


def key_games(user, key: str) -> list[Game]:
    """Games the browser key controls: against the computer and at one screen, started before
    logging in (owned by the key alone), and one started logged in."""
    return [
        computer_game(Actor(None, key)),
        local_game(Actor(None, key)),
        computer_game(Actor(user.pk, key, user.username)),
    ]


def browser_with(session_key: str) -> Client:
    browser = Client()
    browser.cookies[settings.SESSION_COOKIE_NAME] = session_key
    return browser


@pytest.mark.django_db
def test_a_ban_ends_a_session_the_index_never_recorded(player, moderator, redis_client):
    session_key = old_log_in(player, "old-browser-key")
    games = key_games(player, "old-browser-key")
    bans.do_ban(moderator, player, reason="Cheating")

    browser = browser_with(session_key)
    for game in games:
        answer = browser.post(f"/games/{game.pk}/roll", {"version": fresh(game).version}, **HTMX)
        assert answer.status_code == 403
        assert played_by_people(game) == []
    left = Session.objects.filter(session_key=session_key).first()
    if left is not None:  # what is left of it holds neither the log-in nor the browser key
        assert not {SESSION_KEY, PLAYER_KEY} & set(left.get_decoded())
    assert not browser.get("/").context["user"].is_authenticated


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_with_such_a_session_controls_nothing(django_user_model, sockets):
    @database_sync_to_async
    def banned_with_an_old_session():
        troll = django_user_model.objects.create_user("troll")
        moderator = staff(django_user_model, "mod", "Moderator")
        session_key = old_log_in(troll, "old-browser-key")
        games = key_games(troll, "old-browser-key")
        bans.do_ban(moderator, troll, reason="Cheating")
        return session_key, games

    session_key, games = await banned_with_an_old_session()
    for game in games:
        ws = await connect(game.pk, session_key)
        version = (await database_sync_to_async(fresh)(game)).version
        await ws.send_to(text_data=json.dumps({"action": "roll", "version": version}))
        await next_matching(ws, 'id="game-toast"')  # the refusal
        assert await database_sync_to_async(played_by_people)(game) == []
        await ws.disconnect()


@pytest.mark.django_db
def test_a_staked_join_authenticated_before_the_ban_committed_takes_no_seat(
    django_user_model, moderator, monkeypatch, redis_client
):
    """The staked lobby's join checks the ban under the room's lock, as every game command does: a
    join request that was authenticated before the ban committed neither seats nor charges the account."""
    from accounts.ledger.history import balance_of
    from games.staking import rooms
    from tests.ledger_checks import assert_ledger_ok

    host = django_user_model.objects.create_user("host")
    troll = django_user_model.objects.create_user("troll", password=PASSWORD)
    room = rooms.do_create_staked_room(member(host), "twodice", 100)
    browser = logged_in(troll)
    real = rooms.lock_game

    def ban_lands_now(game_id):  # the ban commits while this join is on its way to the lock
        bans.do_ban(moderator, troll, reason="Collusion")
        return real(game_id)

    monkeypatch.setattr(rooms, "lock_game", ban_lands_now)
    answer = browser.post(f"/staked/{room.pk}/join", {"key": "troll-1"}, **HTMX)
    monkeypatch.undo()
    assert answer.status_code == 403 and "banned" in answer.content.decode()
    assert not Seat.objects.filter(game=room, user=troll).exists()
    assert balance_of(troll.pk) == 1000
    assert_ledger_ok()
