"""What one action costs in round trips to Redis (tests/redis_round_trips.py counts them as bench/live.py
does): no more than the floor's (games/web/bench_floor.py), the cheapest action the stack allows, which
shares the rate limit and the push with every action. The action's one presence read rides in the rate
limit's round trip, and a player whose page is open writes no presence by acting; one acting without a
page is written, and read back, in one round trip more."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.core import broadcast, presence
from games.web import bench_floor
from ludopat import push
from ludopat.asgi import application, sockets
from tests.games.test_consumers import HOST, connect, drain, session_for
from tests.games.test_pushes_per_action import Page, board_model, pages_of
from tests.games.webplay import everyone_here, fresh, friends_room, member, turn_seat
from tests.redis_round_trips import RoundTrips

HTMX = {"HTTP_HX_REQUEST": "true"}
THROTTLE = ["SET", "INCRBY"] * 3  # the address's, the session's and the account's counters
RATE_LIMIT_AND_PRESENCE = [*THROTTLE, "ZRANGEBYSCORE"]


@pytest.fixture(autouse=True)
def fresh_layer(redis_client):
    channel_layers.backends.clear()  # each test has its own event loop


def _room(django_user_model):
    host = django_user_model.objects.create_user("hostess")
    guest = django_user_model.objects.create_user("guesto")
    nosy = django_user_model.objects.create_user("nosy")
    return friends_room(member(host), [member(guest)]), host, guest, nosy


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_action_makes_no_more_round_trips_to_redis_than_the_floor_by_post_and_by_socket(
    django_user_model, settings
):
    """As the bench plays it: two players' pages and a spectator's, each action by the seat to play."""
    settings.ROOT_URLCONF = "games.web.bench_floor"  # what LUDOPAT_BENCH_FLOOR=1 sets
    app = sockets(bench_floor.websocket_urlpatterns)
    model = board_model()
    game, host, guest, nosy = await database_sync_to_async(_room)(django_user_model)
    people = [host, guest, nosy]
    pages = await pages_of(game, [(user, f"key-{user.pk}") for user in people], model, app=app)
    browsers = [await database_sync_to_async(_browser)(user) for user in (host, guest)]

    async def act(via: str) -> RoundTrips:
        seat = await database_sync_to_async(turn_seat)(game)
        mover = 0 if seat.user_id == host.pk else 1
        name, values = pages[mover].model.actions()[0]
        with RoundTrips() as trips:
            if via == "post":
                answer = await database_sync_to_async(browsers[mover].post)(
                    f"/games/{game.pk}/{name}", values, **HTMX
                )
                assert answer.status_code == 200
                pages[mover].model.apply(answer.content.decode())
            else:
                await pages[mover].ws.send_to(text_data=json.dumps({"action": name, **values}))
            for page in pages:
                await page.take(values["version"] + 1)
            for page in pages:
                await page.quiet()
        return trips

    async def floor(via: str) -> RoundTrips:
        with RoundTrips() as trips:
            if via == "post":
                answer = await database_sync_to_async(browsers[0].post)(
                    f"/games/{game.pk}/bench-floor", {"size": 500}
                )
                assert answer.status_code == 200
            else:
                await pages[0].ws.send_to(text_data=json.dumps({"action": "bench-floor"}))
            for page in pages:
                await drain(page.ws)
        return trips

    posts = [await act("post") for _ in range(4)]
    frames = [await act("socket") for _ in range(3)]
    floor_posts = [await floor("post") for _ in range(2)]
    floor_frames = [await floor("socket") for _ in range(2)]

    # By POST: the rate limit (with the presence read) and the push; the floor's rate limit and push.
    assert [t.commands for t in posts] == [[RATE_LIMIT_AND_PRESENCE, ["PUBLISH"]]] * 4
    assert [t.commands for t in floor_posts] == [[THROTTLE, ["PUBLISH"]]] * 2
    # By socket: the frame's presence touch first, in both.
    touch = ["MULTI", "ZADD", "ZREMRANGEBYSCORE", "EXPIRE", "EXEC"]
    assert [len(t) for t in frames] == [3] * 3 == [len(t) for t in floor_frames] + [3]
    assert frames[0].commands[0] == touch and frames[0].commands[1][-1] == "ZRANGEBYSCORE"
    for page in pages:
        await page.ws.disconnect()


@pytest.fixture
def clock(monkeypatch) -> dict[str, float]:
    """Presence's clock, moved by the test (`clock["now"] += seconds`)."""
    now = {"now": 1_000_000.0}
    monkeypatch.setattr(presence, "_now", lambda: now["now"])
    return now


def _acting(game):
    """The seat to play and its player's browser; the process's connections to Redis open (a new
    connection's handshake is a round trip of its own, once per connection, not per action)."""
    seat = turn_seat(game)
    push.send(broadcast.group_name(game.pk), broadcast.presence_event())
    presence.connected_seats(game.pk)
    return seat, _browser(seat.user)


@pytest.mark.django_db(transaction=True)  # the push is sent on commit
def test_a_player_whose_page_is_open_writes_no_presence_by_acting_and_stays_present(
    django_user_model, clock, redis_client
):
    game, *_ = _room(django_user_model)
    everyone_here(game)  # both pages' sockets showed life now
    seat, browser = _acting(game)
    clock["now"] += 40  # the socket said so 40 s ago: it outlasts a request's 30 s from now

    with RoundTrips() as trips:
        assert browser.post(f"/games/{game.pk}/roll", {"version": game.version}).status_code == 302

    assert trips.commands == [RATE_LIMIT_AND_PRESENCE, ["PUBLISH"]]
    assert fresh(game).version == game.version + 1
    clock["now"] += 30  # as long as the request would have kept them
    assert seat.pk in presence.connected_seats(game.pk)


@pytest.mark.django_db(transaction=True)  # the push is sent on commit
def test_a_player_without_a_page_is_seen_acting_and_read_back_in_one_round_trip(
    django_user_model, clock, redis_client
):
    game, *_ = _room(django_user_model)
    seat, browser = _acting(game)
    other = game.seats.exclude(pk=seat.pk).get()
    presence.touch(
        game.pk, [other.pk], "their-page"
    )  # the opponent's page is open; the actor's not

    with RoundTrips() as trips:
        assert browser.post(f"/games/{game.pk}/roll", {"version": game.version}).status_code == 302

    written = ["MULTI", "ZADD", "ZREMRANGEBYSCORE", "EXPIRE", "ZRANGEBYSCORE", "EXEC"]
    assert trips.commands == [RATE_LIMIT_AND_PRESENCE, written, ["PUBLISH"]]
    assert fresh(game).version == game.version + 1
    clock["now"] += presence.REQUEST_SECONDS - 1
    assert presence.connected_seats(game.pk) == {seat.pk, other.pk}
    clock["now"] += 2
    assert presence.connected_seats(game.pk) == {other.pk}


@pytest.mark.django_db(transaction=True)  # the push is sent on commit
def test_a_page_silent_longer_than_a_request_counts_gets_the_request_written(
    django_user_model, clock, redis_client
):
    game, *_ = _room(django_user_model)
    everyone_here(game)
    seat, browser = _acting(game)
    # The socket last showed life 50 s ago: it counts for 25 s more, the request for 30.
    clock["now"] += 50

    with RoundTrips() as trips:
        assert browser.post(f"/games/{game.pk}/roll", {"version": game.version}).status_code == 302

    assert "ZADD" in trips.commands[1] and len(trips) == 3
    clock["now"] += presence.REQUEST_SECONDS - 1  # the socket's member is stale by now
    assert seat.pk in presence.connected_seats(game.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_page_told_of_presence_before_its_board_makes_no_read_at_the_next_action(
    django_user_model,
):
    """A socket reached by a presence push before it sent its page the board (another page opened
    meanwhile) waits for a version's push to bring who is here (`presence_due`); the whole board it
    then sends reads who is here itself, newer than that push's: the next action's push costs no read
    of its own (it did, once for each page opened so, at the first action)."""
    model = board_model()
    game, host, _guest, nosy = await database_sync_to_async(_room)(django_user_model)
    await database_sync_to_async(everyone_here)(game)
    key = await database_sync_to_async(session_for)(nosy, "key-n")
    cookie = (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode())
    watcher = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[*HOST, cookie])
    assert (await watcher.connect())[0]
    # The host's page opens: its presence push reaches the watcher's socket before its board.
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    while not await watcher.receive_nothing(timeout=0.5):  # its name; no board yet
        assert 'id="game-live"' not in await watcher.receive_from()
    await watcher.send_to(text_data=json.dumps({"resync": -1}))
    pages = [Page(watcher, model.BoardModel()), Page(host_ws, model.BoardModel())]
    for frame in host_ws.pending:
        pages[1].model.apply(frame)
    host_ws.pending = []
    await pages[0].take(game.version)
    _seat, browser = await database_sync_to_async(_acting)(game)
    for page in pages:
        await page.quiet()

    with RoundTrips() as trips:
        answer = await database_sync_to_async(browser.post)(
            f"/games/{game.pk}/roll", {"version": game.version}, **HTMX
        )
        assert answer.status_code == 200
        for page in pages:
            await page.take(game.version + 1)
        for page in pages:
            await page.quiet()

    assert trips.commands == [RATE_LIMIT_AND_PRESENCE, ["PUBLISH"]]
    for ws in (watcher, host_ws):
        await ws.disconnect()
