"""The load balancer's probes (ludopat/health.py, ludopat/ops_views.py): live answers, ready says 503
only without the database, and Redis or Celery missing is 'degraded' with a 200, answered fast even
when Redis doesn't answer at all."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connections

from games import tasks
from ludopat import health
from ludopat.embedded_redis import free_port
from tests.races import ON_POSTGRES

pytestmark = pytest.mark.django_db


def ready(client) -> tuple[int, dict]:
    response = client.get("/health/ready")
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def test_live_answers_200(client):
    response = client.get("/health/live")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_ready_is_ok_with_everything_up_and_a_sweep_just_run(client, redis_client):
    tasks.sweep_deadlines()  # what beat has a worker run every 2 s
    assert ready(client) == (
        200,
        {
            "status": "ok",
            "checks": {"database": "ok", "redis": "ok", "celery": "ok", "channel_layer": "ok"},
        },
    )


def test_ready_is_degraded_when_no_sweep_ran_lately(client, redis_client):
    assert ready(client) == (
        200,
        {
            "status": "degraded",
            "checks": {
                "database": "ok",
                "redis": "ok",
                "celery": "no sweep",
                "channel_layer": "ok",
            },
        },
    )


def test_ready_is_degraded_not_down_with_redis_unreachable(client, redis_down):
    status, body = ready(client)
    assert status == 200
    assert body == {
        "status": "degraded",
        "checks": {
            "database": "ok",
            "redis": "down",
            "celery": "unknown",
            "channel_layer": "down",  # the default layer is on REDIS_URL
        },
    }


@pytest.fixture
def silent_redis(settings):
    """A 'Redis' that accepts connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    settings.REDIS_URL = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    yield
    listener.close()


def test_a_redis_that_never_answers_costs_the_probe_about_a_second(client, silent_redis):
    started = time.monotonic()
    status, body = ready(client)
    took = time.monotonic() - started
    assert status == 200 and body["checks"]["redis"] == "down"
    assert took < 1 + health.TIMEOUT  # not a hung probe


@pytest.mark.django_db(transaction=True)
def test_ready_is_503_with_the_database_unreachable(client, monkeypatch, tmp_path):
    main = connections["default"]
    if main.vendor == "postgresql":
        monkeypatch.setitem(main.settings_dict, "PORT", str(free_port()))  # nothing listens there
    else:  # SQLite: a file in a folder that does not exist can't be opened
        monkeypatch.setitem(main.settings_dict, "NAME", str(tmp_path / "gone" / "db.sqlite3"))
    status, body = ready(client)
    assert status == 503
    assert body["status"] == "down" and body["checks"]["database"] == "down"


# A server that stops answering once the connection is set up: what a pooler in front of a stuck
# PostgreSQL looks like, or a Redis that hangs. The probe must not wait on it.

ABOUT_A_SECOND = 1.5  # the probe's one-second budget, and room for a loaded 2-core machine
READY_FOR_QUERY = b"Z\x00\x00\x00\x05"  # PostgreSQL's "logged in, send a query"
REDIS_HANDSHAKE = (b"CLIENT", b"HELLO", b"AUTH", b"SELECT")  # what redis-py sends on connecting


class SilentRelay:
    """A TCP relay on 127.0.0.1 to a real server. Each connection's setup (the login) passes through;
    then it goes silent: the connection stays open and nothing passes either way. `set_up(chunk,
    answered)` says whether the client's `chunk`, after the server's `answered` bytes, comes after
    the setup. A connection silent for HANG_UP seconds is closed, so that a probe without a deadline
    of its own fails the test rather than hanging it."""

    HANG_UP = 4.0

    def __init__(self, target: tuple[str, int], set_up) -> None:
        self.target, self.set_up = target, set_up
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.silenced = 0  # connections that went silent
        self.hung_up = threading.Event()  # a client closed a silent connection itself
        self.sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
                server = socket.create_connection(self.target)
            except OSError:
                return
            self.sockets += [client, server]
            threading.Thread(target=self._relay, args=(client, server), daemon=True).start()

    def _relay(self, client: socket.socket, server: socket.socket) -> None:
        answered = bytearray()
        silent = threading.Event()

        def answers() -> None:
            while chunk := _receive(server):
                if not silent.is_set():
                    answered.extend(chunk)
                    client.sendall(chunk)

        threading.Thread(target=answers, daemon=True).start()
        while not silent.is_set():
            chunk = _receive(client)
            if not chunk:
                break
            if self.set_up(chunk, bytes(answered)):
                silent.set()
                self.silenced += 1
            else:
                server.sendall(chunk)
        if silent.is_set():
            client.settimeout(self.HANG_UP)
            try:
                while client.recv(65536):  # whatever else the client says is dropped
                    pass
                self.hung_up.set()
            except OSError:  # HANG_UP passed, or the test closed the relay
                pass
        for end in (client, server):
            _hang_up(end)

    @property
    def url_port(self) -> str:
        return f"127.0.0.1:{self.port}"

    def close(self) -> None:
        for each in self.sockets:
            _hang_up(each)


def _receive(end: socket.socket) -> bytes:
    try:
        return end.recv(65536)
    except OSError:
        return b""


def _hang_up(end: socket.socket) -> None:
    """Close a socket that another thread may be reading: close() alone would leave that read, and
    the connection, open."""
    with contextlib.suppress(OSError):
        end.shutdown(socket.SHUT_RDWR)
    end.close()


def after_login(chunk: bytes, answered: bytes) -> bool:
    return READY_FOR_QUERY in answered


def after_handshake(chunk: bytes, answered: bytes) -> bool:
    return not any(word in chunk.upper() for word in REDIS_HANDSHAKE)


@pytest.fixture
def relays():
    made: list[SilentRelay] = []

    def relay(target: tuple[str, int], set_up) -> SilentRelay:
        made.append(SilentRelay(target, set_up))
        return made[-1]

    yield relay
    for each in made:
        each.close()


def timed_ready(client) -> tuple[int, dict, float]:
    """The probe's answer and how long it took, in a process that has served a request already (the
    first one loads the middleware and the URLs, a few tenths of a second that are not the probe's)."""
    assert client.get("/health/live").status_code == 200
    started = time.monotonic()
    status, body = ready(client)
    return status, body, time.monotonic() - started


def redis_behind(relay: SilentRelay, url: str) -> str:
    """`url` (a Redis URL) with its host and port replaced by the relay's."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=relay.url_port))


def redis_target(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 6379


def test_every_redis_going_silent_costs_the_probe_about_a_second_and_a_lost_shard_is_degraded(
    client, settings, relays, redis_client
):
    tasks.sweep_deadlines()  # a fresh heartbeat on the real Redis
    real = settings.REDIS_URL
    silent = [relays(redis_target(real), after_handshake) for _ in range(3)]
    settings.REDIS_URL = redis_behind(silent[0], real)
    # Three shards: the real Redis (answers), and two behind relays that go silent.
    settings.CHANNEL_LAYER_REDIS_URLS = [real, *(redis_behind(s, real) for s in silent[1:])]

    status, body, took = timed_ready(client)

    assert (status, body) == (
        200,
        {
            "status": "degraded",
            "checks": {
                "database": "ok",
                "redis": "down",
                "celery": "unknown",
                "channel_layer": "down: shards 2, 3 of 3",
            },
        },
    )
    assert all(each.silenced for each in silent)  # each was reached, set up, then went silent
    assert took < ABOUT_A_SECOND


@pytest.mark.skipif(
    not ON_POSTGRES, reason="a relay to PostgreSQL (DATABASE_URL): SQLite has no server"
)
def test_a_database_going_silent_after_login_is_down_within_about_a_second(
    client, settings, monkeypatch, relays
):
    main = connections["default"]
    target = (main.settings_dict["HOST"] or "127.0.0.1", int(main.settings_dict["PORT"] or 5432))
    database = relays(target, after_login)
    monkeypatch.setitem(main.settings_dict, "HOST", "127.0.0.1")
    monkeypatch.setitem(main.settings_dict, "PORT", str(database.port))
    # Plain text, so the relay sees the login end (this server may offer TLS).
    options = {**main.settings_dict.get("OPTIONS", {}), "sslmode": "disable"}
    monkeypatch.setitem(main.settings_dict, "OPTIONS", options)
    # And Redis hangs as well: the probe's second is for everything together.
    redis = relays(redis_target(settings.REDIS_URL), after_handshake)
    settings.REDIS_URL = redis_behind(redis, settings.REDIS_URL)
    settings.CHANNEL_LAYER_REDIS_URLS = [settings.REDIS_URL]

    status, body, took = timed_ready(client)

    assert status == 503
    assert body["status"] == "down"
    assert body["checks"]["database"] == "down" and body["checks"]["redis"] == "down"
    assert database.silenced == 1  # it logged in, then its query met silence
    assert took < ABOUT_A_SECOND
    # The probe hung up on the silent server itself: no thread is left waiting on it for ever.
    assert database.hung_up.wait(2)
