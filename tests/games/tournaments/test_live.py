"""The bracket page's socket (games/web/tournament_consumer.py) through the real ASGI application and
Redis channel layer: the bracket on connect, a decided match pushed to every watcher, and a player's
notice reaching their open page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.tournaments.models import Tournament
from games.tournaments.registration import do_leave, do_register, open_tournament
from games.tournaments.sweeper import tell_starting_soon
from ludopat.asgi import application
from tests.games.test_consumers import HOST, session_for
from tests.games.tournaments.helpers import full_tournament, live_matches, lose, players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def fresh_layer(settings, redis_client):
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests
    channel_layers.backends.clear()  # each test has its own event loop


async def watch(tournament_id: int, session_key: str | None = None) -> WebsocketCommunicator:
    headers = list(HOST)
    if session_key:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
    ws = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def until(ws: WebsocketCommunicator, text: str) -> str:
    for _ in range(20):
        message = await ws.receive_from(timeout=5)
        if text in message:
            return message
    raise AssertionError(f"never received {text!r}")


async def test_a_decided_match_reaches_every_watcher_and_the_winner_is_told():
    people = await database_sync_to_async(players)(4)
    tournament = await database_sync_to_async(full_tournament)(people)
    match = (await database_sync_to_async(live_matches)(tournament))[0]
    winner = await database_sync_to_async(User.objects.get)(pk=match.second.user_id)
    stranger = await watch(tournament.pk)
    player = await watch(tournament.pk, await database_sync_to_async(session_for)(winner))
    first = await stranger.receive_from(timeout=5)
    assert 'id="bracket-live"' in first and 'data-status="playing"' in first
    await until(player, 'id="bracket-live"')

    await database_sync_to_async(lose)(match, people)
    pushed = await until(stranger, 'data-status="won"')
    assert winner.username in pushed
    notice = await until(player, "tournament-notice")
    assert "You won your semi-final" in notice
    for ws in (stranger, player):
        await ws.disconnect()


def scheduled(people, seconds: float, size: int = 0) -> Tournament:
    """A scheduled tournament of `size` seats (default: one for each of `people`) with `people`
    registered, `seconds` before its time."""
    size = size or len(people)
    tournament = open_tournament(size, 100, scheduled_for=timezone.now() + timedelta(1))
    for actor in people:
        do_register(actor, tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() + timedelta(seconds=seconds)
    )
    return tournament


async def test_a_scheduled_tournaments_players_are_told_once_seconds_before_it_starts():
    people = await database_sync_to_async(players)(4)
    later = await database_sync_to_async(scheduled)(people, 60)
    others = await database_sync_to_async(players)(4, "q")
    tournament = await database_sync_to_async(scheduled)(others, 6)
    first = await database_sync_to_async(User.objects.get)(username="q0")
    page = await watch(tournament.pk, await database_sync_to_async(session_for)(first))
    await until(page, 'id="bracket-live"')

    assert await database_sync_to_async(tell_starting_soon)() == 1  # not the one a minute away
    notice = await until(page, "tournament-notice")
    assert re.search(rf"Tournament #{tournament.pk} starts in [56] s\.", notice)
    assert await database_sync_to_async(tell_starting_soon)() == 0  # once
    assert (await database_sync_to_async(Tournament.objects.get)(pk=later.pk)).status == "open"
    await page.disconnect()


async def notices_within(ws: WebsocketCommunicator, seconds: float = 1.0) -> list[str]:
    """The notices this page receives in the next `seconds` (bracket updates aside)."""
    received = []
    while not await ws.receive_nothing(timeout=seconds):
        message = await ws.receive_from()
        if "tournament-notice" in message:
            received.append(message)
    return received


async def test_who_registers_or_leaves_after_the_starting_soon_notice_changes_what_players_are_told():
    people = await database_sync_to_async(players)(4)
    early = await database_sync_to_async(scheduled)(people[:2], 8, size=4)
    pages = []
    for actor in people:
        user = await database_sync_to_async(User.objects.get)(pk=actor.user_id)
        pages.append(await watch(early.pk, await database_sync_to_async(session_for)(user)))
        await until(pages[-1], 'id="bracket-live"')

    assert await database_sync_to_async(tell_starting_soon)() == 1
    for page in pages[:2]:
        told = await until(page, "tournament-notice")
        assert "if its last 2 seats fill" in told

    # A third player, after the notice: told as the others were; the others are told nothing new.
    await database_sync_to_async(do_register)(people[2], early.pk)
    told = await until(pages[2], "tournament-notice")
    assert re.search(rf"Tournament #{early.pk} starts in [5-8] s if its last 1 seat fill", told)
    assert await notices_within(pages[0]) == []

    # The last seat: everyone's start no longer hangs on it.
    await database_sync_to_async(do_register)(people[3], early.pk)
    for page in pages:
        told = await until(page, "tournament-notice")
        assert re.search(rf"Tournament #{early.pk} starts in [4-8] s\. <a", told)

    # One leaves: the others learn the start hangs on a seat again; the one who left is not told.
    await database_sync_to_async(do_leave)(people[1], early.pk)
    for page in (pages[0], pages[2], pages[3]):
        told = await until(page, "tournament-notice")
        assert "if its last 1 seat fill; if not, it is cancelled" in told
    assert await notices_within(pages[1]) == []
    for page in pages:
        await page.disconnect()


async def test_registering_before_the_starting_soon_notice_tells_no_one_yet():
    people = await database_sync_to_async(players)(3)
    later = await database_sync_to_async(scheduled)(people[:2], 8, size=4)
    user = await database_sync_to_async(User.objects.get)(pk=people[2].user_id)
    page = await watch(later.pk, await database_sync_to_async(session_for)(user))
    await until(page, 'id="bracket-live"')
    await database_sync_to_async(do_register)(people[2], later.pk)
    assert await notices_within(page) == []  # beat's sweep tells everyone, this player included
    await page.disconnect()


async def test_no_such_tournament_is_refused():
    ws = WebsocketCommunicator(application, "/ws/tournaments/987654/", headers=list(HOST))
    connected, code = await ws.connect()
    assert not connected and code == 4404  # the page must not retry


def token_home(match) -> int:
    """A token of the match's first player reaches home (the handler the move calls, in a committed
    transaction); returns the tournament's version afterwards."""
    from django.db import transaction

    from games.actions.state import engine_state
    from games.engine import HOME
    from games.models import Game
    from games.tournaments.handlers import score_moved

    game = Game.objects.get(pk=match.game_id)
    state = engine_state(game)
    colour = game.players[0][0]
    index = state.colours.index(colour)
    tokens = list(state.tokens)
    tokens[index] = (HOME, *tokens[index][1:])
    with transaction.atomic():
        score_moved(game, state._replace(tokens=tuple(tokens)))
    return Tournament.objects.get(pk=match.tournament_id).version


async def test_a_token_reaching_home_moves_the_score_on_every_bracket_without_a_new_version():
    people = await database_sync_to_async(players)(4)
    tournament = await database_sync_to_async(full_tournament)(people)
    match = (await database_sync_to_async(live_matches)(tournament))[0]
    watcher = await watch(tournament.pk)
    await until(watcher, 'id="bracket-live"')

    version = await database_sync_to_async(token_home)(match)
    assert version == tournament.version  # the tournament's row is not written
    pushed = await watcher.receive_from(timeout=5)
    assert 'id="bracket-live"' not in pushed  # the score alone, not the bracket
    assert re.search(
        rf'id="score-{tournament.pk}-1-{match.slot}-0" hx-swap-oob="true"[^>]*><strong>1</strong> home',
        pushed,
    )
    assert f'id="score-{tournament.pk}-1-{match.slot}-1"' in pushed
    await watcher.disconnect()


async def test_a_players_own_part_comes_with_the_bracket_and_only_to_them():
    people = await database_sync_to_async(players)(4)
    tournament = await database_sync_to_async(full_tournament)(people)
    match = (await database_sync_to_async(live_matches)(tournament))[0]
    player = await database_sync_to_async(User.objects.get)(pk=match.first.user_id)
    mine = await watch(tournament.pk, await database_sync_to_async(session_for)(player))
    stranger = await watch(tournament.pk)
    first = await until(mine, 'id="bracket-live"')
    assert 'id="my-match" hx-swap-oob="true"' in first and "Play your match" in first
    assert 'id="my-match"' not in await until(stranger, 'id="bracket-live"')

    await database_sync_to_async(lose)(match, people)  # the player resigns: out, told so
    pushed = await until(mine, "You are out: you finish 3rd-4th.")
    assert "Play your match" not in pushed
    for ws in (mine, stranger):
        await ws.disconnect()
