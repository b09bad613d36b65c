"""The read replica for real: a PostgreSQL primary and a streaming replica of the test's own
(replica_servers.py), a daphne process on them with DATABASE_REPLICA_URL, and browsers talking HTTP.

With the replica's replay paused, a round that finishes for alice (in another process than her
browser's requests, as a timer or a socket would end it) is on her own player page and the leaderboard
at once, and on those of a browser that just POSTed something; a browser that wrote nothing sees the
replica's older pages until replay resumes. A replica that goes away leaves the pages served from the
primary. About 12 s (up to 30 s on a busy machine): the servers start in 2-3 s, migrating the fresh
database takes about 6 s, daphne starts meanwhile.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

import pytest
from django.conf import settings

from ludopat.embedded_redis import free_port
from tests.integration.conftest import Service, listening, wait_for
from tests.integration.replica_servers import ReplicaPair, os_user_missing, server_binaries
from tests.stack import BIN, ROOT, service_env

DATABASE = "ludopat"


@dataclass
class Site:
    pair: ReplicaPair
    port: int
    env: dict
    made: dict = field(default_factory=dict)  # what the setup step made

    def step(self, *args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "tests.integration.replica_steps", *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])


@dataclass
class Browser:
    """One browser's cookies, sent with each request to the site (no redirects followed)."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, path: str, data: bytes | None = None, headers: dict | None = None):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, headers=headers or {}
        )
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        opener = urllib.request.build_opener(NoRedirects)
        try:
            response = opener.open(request, timeout=20)
        except urllib.error.HTTPError as error:
            response = error
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, response.read().decode()

    def get(self, path: str) -> str:
        status, body = self.request(path)
        assert status == 200, (path, status, body[-2000:])
        return body

    def post(self, path: str) -> int:
        token = self.cookies["csrftoken"]
        status, _ = self.request(path, b"", {"X-CSRFToken": token, "Referer": self.url("/")})
        return status

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # a 302 is the answer itself
        return None


@pytest.fixture
def site(django_db_blocker) -> Iterator[Site]:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("a read replica is PostgreSQL's streaming replication: this run is on SQLite")
    binaries = server_binaries()
    if binaries is None or os_user_missing():
        pytest.skip(
            "needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) and its OS user"
        )
    pair = ReplicaPair(binaries)
    daphne = None
    try:
        pair.start()
        pair.sql(pair.primary_port, f"CREATE DATABASE {DATABASE}")
        env = service_env("tests.integration.settings", django_db_blocker)
        env["DATABASE_URL"] = pair.url(pair.primary_port, DATABASE)
        env["DATABASE_REPLICA_URL"] = pair.url(pair.replica_port, DATABASE)
        port = free_port()
        daphne = Service(
            "replica-daphne",
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "ludopat.asgi:application"],
            env,
        )
        daphne.start()  # starts up while the database is migrated
        site = Site(pair, port, env)
        site.made = site.step("setup")
        listening(daphne, port)
        yield site
    finally:
        if daphne is not None:
            daphne.stop()
        pair.stop()


def replay_paused(pair: ReplicaPair) -> None:
    pair.sql(pair.replica_port, "SELECT pg_wal_replay_pause()")
    wait_for(
        lambda: pair.sql(pair.replica_port, "SELECT pg_get_wal_replay_pause_state()") == "paused"
    )


def test_a_player_sees_their_finished_round_while_the_replica_lags(site: Site) -> None:
    pair = site.pair
    made = site.made
    alice = Browser(site.port, {"sessionid": made["session"]})
    bob = Browser(site.port)  # wrote nothing
    carol = Browser(site.port)  # will write something
    wait_for(pair.replica_caught_up)
    leaderboard = "/leaderboard/?period=all&board=all"
    assert "/u/alice/" not in bob.get(leaderboard)
    carol.get(leaderboard)  # her CSRF cookie

    replay_paused(pair)
    finished = site.step("finish", str(made["game"]))
    replay = f"/replays/{finished['public_id']}/"
    assert not pair.replica_caught_up()
    # The router's connection in a replica-reading page is the replica, outside it the primary.
    assert finished["inside"] == ["replica", True]  # pg_is_in_recovery()
    assert finished["outside"] == ["default", False]
    assert finished["kept"] == ["default", False]  # kept for everyone: never a lagging replica's

    # alice's round finished, whoever's request ended it: her browser reads the primary.
    assert replay in alice.get("/u/alice/")
    assert "/u/alice/" in alice.get(leaderboard)
    # bob reads the replica, which hasn't got the round yet.
    assert replay not in bob.get("/u/alice/")
    assert "/u/alice/" not in bob.get(leaderboard)
    # carol logs out (any successful POST): her browser reads the primary for the next 10 s.
    assert carol.post("/accounts/logout/") == 302
    assert replay in carol.get("/u/alice/")
    assert "/u/alice/" in carol.get(leaderboard)
    # A replay the replica doesn't know yet (its 404) is looked up on the primary, for anyone.
    assert "No such replay" not in bob.get(replay)

    pair.sql(pair.replica_port, "SELECT pg_wal_replay_resume()")
    wait_for(pair.replica_caught_up)
    assert replay in bob.get("/u/alice/")
    assert "/u/alice/" in bob.get(leaderboard)

    # The replica gone: pages come from the primary (the first after the replica pool's 2 s timeout).
    pair.stop_replica()
    started = time.monotonic()
    assert "/u/alice/" in bob.get(leaderboard)
    assert replay in bob.get("/u/alice/")
    assert time.monotonic() - started < 10
