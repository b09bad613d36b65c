"""Staked rematch offers: offered to the old opponent only, unlisted, kept while either
player has the old game's or the new room's page open, and shown live on the old game's page."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.test import Client
from django.utils import timezone

from accounts.ledger.history import balance_of
from games.core import presence
from games.core.errors import NotAllowed
from games.models import Game
from games.staking.quick import do_quick_match
from games.staking.rematch import do_offer_rematch
from games.staking.rooms import do_cancel_staked_room, do_join_staked_room
from games.staking.sweeper import _absent_key, withdraw_unattended
from tests.factories import finished_staked_game
from tests.games.test_consumers import connect, drain, session_for
from tests.games.webplay import fresh, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests
    channel_layers.backends.clear()  # each async test has its own event loop


def account(django_user_model, name: str):
    user = django_user_model.objects.create_user(name)
    django_user_model.objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timedelta(days=2)
    )
    client = Client()
    client.force_login(user)
    return user, client


def finished_game(ann, bea) -> Game:
    """ann's staked room, joined by bea, who resigned: ann won."""
    return finished_staked_game(ann, bea)


def text(response) -> str:
    return response.content.decode()


def _unattended_for(game: Game, seconds: float) -> None:
    """The sweeper first saw nobody at the room `seconds` ago (as tests/games/actions/test_stakes.py does)."""
    presence.client().set(_absent_key(game.pk), time.time() - seconds)


def test_a_rematch_is_unlisted_and_only_the_old_opponent_may_join(django_user_model):
    (ann, ann_client), (bea, _bea_client) = (account(django_user_model, n) for n in ("ann", "bea"))
    carl, carl_client = account(django_user_model, "carl")
    old = finished_game(ann, bea)
    new = do_offer_rematch(member(bea), old.pk)
    assert "no-staked-rooms" in text(carl_client.get("/staked/rooms"))  # not in the lobby
    page = text(carl_client.get(f"/games/{new.pk}/"))
    assert "Join for 100 coins" not in page and "offered to ann" in page
    refused = carl_client.post(f"/staked/{new.pk}/join", {"key": "carl-1"}, follow=True)
    assert "offered to ann" in text(refused)
    with pytest.raises(NotAllowed, match="offered to ann"):
        do_join_staked_room(member(carl), new.pk)
    assert fresh(new).status == Game.Status.OPEN and balance_of(carl.pk) == 1000
    assert do_quick_match(member(carl), "100").pk != new.pk  # nor paired by quick match
    ann_client.post(f"/staked/{new.pk}/join", {"key": "ann-1"})
    assert fresh(new).status == Game.Status.PLAYING
    assert balance_of(ann.pk) == 980 and balance_of(bea.pk) == 800


def test_an_offer_stays_while_a_player_has_the_old_game_page_open(django_user_model):
    (ann, _), (bea, _) = (account(django_user_model, n) for n in ("ann", "bea"))
    old = finished_game(ann, bea)
    new = do_offer_rematch(member(ann), old.pk)
    seats = list(old.seats.values_list("pk", flat=True))
    presence.touch(old.pk, seats, "old-page")  # both players still look at the old game
    assert withdraw_unattended() == 0
    _unattended_for(new, 60)
    assert withdraw_unattended() == 0
    assert fresh(new).status == Game.Status.OPEN and balance_of(ann.pk) == 980


def test_an_offer_nobody_looks_at_is_withdrawn_after_30_s(django_user_model, monkeypatch):
    (ann, _), (bea, _) = (account(django_user_model, n) for n in ("ann", "bea"))
    old = finished_game(ann, bea)
    new = do_offer_rematch(member(ann), old.pk)
    # bea's join counts as her being at the old game for a request's 30 s (games.core.presence): past that
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    assert withdraw_unattended() == 0  # first seen unattended now
    _unattended_for(new, 29)
    assert withdraw_unattended() == 0
    _unattended_for(new, 31)
    assert withdraw_unattended() == 1
    assert fresh(new).status == Game.Status.ABANDONED and balance_of(ann.pk) == 1080


# --- the old game's page, live -------------------------------------------------------------------------


def _rematch_part(html: str) -> str:
    """The staked result's panel (the log below it keeps "offers a rematch" as history)."""
    start = html.index('data-testid="stake-result"')
    return html[start : html.index("</div>", start)]


async def _board_showing(ws, text: str, timeout: float = 5.0) -> str:
    """The staked result's panel of the first board pushed to this page that shows `text`."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        shown = _rematch_part(await _next_board(ws, timeout=left))
        if text in shown:
            return shown
    raise AssertionError(f"no board showing {text!r} within {timeout} s")


async def _next_board(ws, timeout=3.0) -> str:
    """The next board pushed to this page."""
    while True:
        html = await ws.receive_from(timeout=timeout)
        if 'id="game-live"' in html:
            return html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_old_game_page_shows_offered_withdrawn_and_joined_live(django_user_model):
    @database_sync_to_async
    def setup():
        users = [account(django_user_model, n)[0] for n in ("ann", "bea")]
        return (*users, finished_game(*users))

    ann, bea, old = await setup()
    ann_ws = await connect(old.pk, await database_sync_to_async(session_for)(ann, "key-a"))
    bea_ws = await connect(old.pk, await database_sync_to_async(session_for)(bea, "key-b"))
    for ws in (ann_ws, bea_ws):
        await drain(ws)

    offer = database_sync_to_async(do_offer_rematch)
    new = await offer(member(bea), old.pk)
    assert "bea offers a rematch" in _rematch_part(await _next_board(ann_ws))
    await drain(bea_ws)

    await database_sync_to_async(do_cancel_staked_room)(member(bea), new.pk)
    for ws in (ann_ws, bea_ws):
        shown = _rematch_part(await _next_board(ws))
        assert "rematch offer was withdrawn" in shown and "offers a rematch: join" not in shown
        assert 'data-testid="rematch"' in shown  # either may offer again

    again = await offer(member(bea), old.pk)
    await drain(ann_ws)
    await drain(bea_ws)
    await database_sync_to_async(do_join_staked_room)(member(ann), again.pk)
    for ws, who in ((bea_ws, "ann"), (ann_ws, "You")):
        # The join's board, past the offer's if that push came after the drain (a loaded machine).
        shown = await _board_showing(ws, f"{who} joined the rematch")
        assert f"/games/{again.pk}/" in shown
        assert re.search(r'data-testid="rematch"', shown) is None
    for ws in (ann_ws, bea_ws):
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_old_opponent_looking_at_the_new_room_keeps_the_offer(
    django_user_model, monkeypatch
):
    @database_sync_to_async
    def setup():
        ann, bea = (account(django_user_model, n)[0] for n in ("ann", "bea"))
        old = finished_game(ann, bea)
        return ann, bea, old, do_offer_rematch(member(ann), old.pk)

    _ann, bea, _old, new = await setup()
    bea_ws = await connect(new.pk, await database_sync_to_async(session_for)(bea, "key-b"))
    withdraw = database_sync_to_async(withdraw_unattended)
    assert await withdraw() == 0
    await database_sync_to_async(_unattended_for)(new, 60)
    assert await withdraw() == 0  # bea is looking at the room offered to her
    await bea_ws.disconnect()
    # past the closed page's grace and bea's join, which counts as a request's 30 s (games.core.presence)
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    assert await withdraw() == 0  # nobody now: first noticed
    await database_sync_to_async(_unattended_for)(new, 31)
    assert await withdraw() == 1
    assert (await database_sync_to_async(fresh)(new)).status == Game.Status.ABANDONED
