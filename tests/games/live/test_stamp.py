"""The push's stamp and the render's are one: a socket given a push takes the board another socket of
its viewpoint rendered for it, without rendering or reading anything itself."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.layers import channel_layers, get_channel_layer
from django.utils import timezone

from games.core import broadcast
from games.live.fragments import live_board, shared_board
from games.live.viewpoint import viewpoint_for
from games.staking.rematch import do_offer_rematch
from tests.factories import finished_staked_game
from tests.games.webplay import anon, fresh, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

# Committed for real: fragments are kept only once what they show is committed (games.core.caches).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0
    settings.LUDOPAT_BOT_DELAY = 60
    channel_layers.backends.clear()  # a layer of this test's own
    yield
    channel_layers.backends.clear()


def _old_enough(django_user_model, name: str):
    user = django_user_model.objects.create_user(name)
    django_user_model.objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timezone.timedelta(days=2)
    )
    return user


class _Listening:
    """The game's pushes as one socket gets them: a channel in the game's group on an event loop of
    its own (in a thread), from before the action to the end (the channel layer keeps no message for
    a socket that is not listening, ludopat/channel_layer.py)."""

    def __init__(self, game_id: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.channel = self._run(_listening(game_id))

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def next_version_pushed(self) -> dict:
        return self._run(_next_version_pushed(self.channel))

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()  # the layer's connections of this loop with it


async def _listening(game_id: str) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.group_name(game_id), channel)
    return channel


async def _next_version_pushed(channel: str) -> dict:
    """The next push of a new version of the game (presence pushes skipped)."""
    layer = get_channel_layer()
    while True:
        event = await asyncio.wait_for(layer.receive(channel), 5)
        if event.get("type") == "game.update" and event.get("version", -1) >= 0:
            return event


def test_a_finished_staked_game_with_a_rematch_offer_is_rendered_once_per_viewpoint(
    django_user_model,
):
    """The offer is what such a board shows besides its version: a push stamped without it never
    matched the board a socket rendered, so every socket of the page rendered it again."""
    ann, bea = (_old_enough(django_user_model, n) for n in ("ann", "bea"))
    old = finished_staked_game(ann, bea)
    listening = _Listening(old.pk)
    try:
        do_offer_rematch(member(bea), old.pk)  # a new version of the old game: the offer in its log
        event = listening.next_version_pushed()
    finally:
        listening.close()
    game = fresh(old)
    assert event["version"] == game.version
    seats = list(game.seats.select_related("user"))
    watcher = viewpoint_for(game, seats, anon("a-watcher"))
    rendered = live_board(game, watcher, seats=seats)  # the first watcher's socket renders it
    assert "rematch" in rendered.whole().lower()
    shared = shared_board(game.pk, watcher, event)  # the others take it
    assert shared == rendered
