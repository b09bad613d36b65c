"""Integration tests: a real Celery worker and beat (subprocesses) on the test database and the session's
Redis, as `make run` starts them, with the timers of timed rooms firing for real.

The worker and beat start at the first test of this package that needs them and stop after its last one
(before the browser tests start their own stack). They run tests/integration/settings.py. Each stack
starts once: the tests that run a stack of their own (its own Redis) come first, then those that start
none (their threads race with no worker or sweeper of the package's), before the package's worker and
beat exist; those on `two_sites` (two daphne processes and two workers, for which the package's worker
is stopped) come last (pytest_collection_modifyitems). Tests use
`django_db(transaction=True)`: what they write is committed, so the worker sees it, and the tables are
flushed afterwards. Redis is never flushed while the worker runs (it would lose the queue's binding).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.games.webplay import SEED
from tests.stack import BIN, LOGS, ROOT, quiesce_games, service_env

START_TIMEOUT = 30.0
GRACE = 1.5
AWAY_DELAY = 0.5


@dataclass
class Service:
    name: str
    command: list[str]
    env: dict
    proc: subprocess.Popen | None = None

    @property
    def log(self) -> Path:
        return LOGS / f"integration-{self.name}.log"

    def start(self) -> None:
        with self.log.open("ab") as handle:
            handle.write(f"\n--- start {time.strftime('%X')} ---\n".encode())
            self.proc = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a kill reaches its pool children
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_for_log(self, needle: str, after: int = 0) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.text()[-5000:]}")
            if needle in self.text()[after:]:
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not log {needle!r}:\n{self.text()[-5000:]}")

    def kill(self, sig=signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()


@dataclass
class Celery:
    worker: Service
    beat: Service

    def start_worker(self) -> None:
        mark = len(self.worker.text())
        self.worker.start()
        self.worker.wait_for_log("ready.", after=mark)

    def kill_worker(self) -> None:
        """SIGKILL the worker and its pool: tasks it holds (a timer's, waiting for its eta) are lost
        until the broker's visibility timeout, an hour away."""
        self.worker.kill(signal.SIGKILL)


@pytest.fixture(scope="package")
def celery_stack(django_db_setup, django_db_blocker) -> Iterator[Celery]:
    env = service_env("tests.integration.settings", django_db_blocker)
    workdir = tempfile.mkdtemp(prefix="ludopat-integration-")
    celery = str(BIN / "celery")
    worker = Service(
        "worker",
        [celery, "-A", "ludopat", "worker", "--loglevel", "INFO", "--concurrency", "2",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", "integration@%h"],
        env,
    )  # fmt: skip
    beat = Service(
        "beat",
        [celery, "-A", "ludopat", "beat", "--loglevel", "INFO",
         "--schedule", str(Path(workdir) / "celerybeat-schedule")],
        env,
    )  # fmt: skip
    stack = Celery(worker, beat)
    try:
        stack.start_worker()
        beat.start()
        beat.wait_for_log("beat: Starting")
        yield stack
    finally:
        beat.stop()
        worker.stop()


@pytest.fixture
def celery(celery_stack, transactional_db, settings) -> Iterator[Celery]:
    """The running worker and beat for one test, with the test process's timer settings matching
    theirs (the process that acts sets the next deadline)."""
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 0.05
    settings.LUDOPAT_DISCONNECT_GRACE = GRACE
    settings.LUDOPAT_AWAY_DELAY = AWAY_DELAY
    if celery_stack.worker.proc.poll() is not None:
        celery_stack.start_worker()
    yield celery_stack
    quiesce_games()


@dataclass
class TwoSites:
    ports: tuple[int, int]
    daphnes: list[Service]
    workers: list[Service]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(service: Service, port: int, timeout: float = START_TIMEOUT) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if service.proc.poll() is not None:
            raise RuntimeError(f"{service.name} exited:\n{service.text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{service.name} did not listen on {port}:\n{service.text()[-3000:]}")


@pytest.fixture(scope="package")
def two_sites(celery_stack, django_db_blocker) -> Iterator[TwoSites]:
    """The production shape (test_scale_out.py, test_moderation_bites.py): two daphne processes and two
    Celery workers (one task at a time each) on the test database and Redis, beside the package's beat.
    The package's worker is stopped for good: these tests run last in the package."""
    env = service_env("tests.integration.settings", django_db_blocker)
    celery_stack.worker.stop()  # only these two workers take tasks meanwhile
    ports = (_free_port(), _free_port())
    daphnes = [
        Service(f"scale-daphne-{n}",
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "ludopat.asgi:application"],
                env)
        for n, port in enumerate(ports)
    ]  # fmt: skip
    workers = [
        Service(f"scale-worker-{n}",
                [str(BIN / "celery"), "-A", "ludopat", "worker", "--loglevel", "INFO",
                 "--concurrency", "1", "--without-gossip", "--without-mingle",
                 "--without-heartbeat", "-n", f"scale{n}@%h"],
                env)
        for n in range(2)
    ]  # fmt: skip
    started = [*daphnes, *workers]
    try:
        for service in started:
            service.start()
        for service, port in zip(daphnes, ports, strict=True):
            _listening(service, port)
        for worker in workers:
            worker.wait_for_log("ready.")
        yield TwoSites(ports, daphnes, workers)
    finally:
        for service in started:  # all at once: each may take a few seconds to wind down
            if service.proc is not None and service.proc.poll() is None:
                os.killpg(service.proc.pid, signal.SIGTERM)
        for service in started:
            service.stop()  # waits, and kills what is still running after 10 s


@pytest.fixture
def sites(two_sites, transactional_db, settings) -> Iterator[TwoSites]:
    """The two sites for one test; this process's settings match theirs (whoever acts sets the next
    deadline), and every game is stopped before the tables are flushed."""
    from channels.layers import channel_layers

    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 0.05
    settings.LUDOPAT_DISCONNECT_GRACE = GRACE
    settings.LUDOPAT_AWAY_DELAY = AWAY_DELAY
    channel_layers.backends.clear()  # a layer made in another test's event loop can't be reused
    for service in [*two_sites.daphnes, *two_sites.workers]:
        assert service.proc.poll() is None, f"{service.name} died:\n{service.text()[-3000:]}"
    yield two_sites
    quiesce_games()


def wait_for(predicate: Callable[[], object], timeout: float = 10.0, interval: float = 0.05):
    """Poll until `predicate()` is truthy; its value, or AssertionError after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"still false after {timeout} s: {predicate}")
        time.sleep(interval)


# Fixtures of test modules that start a stack on a Redis of their own and pause the package's worker and
# beat while they run (test_broker_restart.py, test_redis_fault.py).
OWN_STACKS = {"stack", "site"}


def _stack_order(item: pytest.Item) -> int:
    """0: a stack of its own (before the package's exists, so nothing is paused and started again);
    1: no stack at all (threads racing in this process: no worker or sweeper of the package's joins
    the race); 2: the package's worker and beat; 3: two_sites (it stops the package's worker)."""
    names = set(getattr(item, "fixturenames", ()))
    if names & OWN_STACKS:
        return 0
    if "two_sites" in names:
        return 3
    return 2 if "celery_stack" in names else 1


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list
) -> None:
    """Every test under tests/integration is an integration test: the parallel runs (`make test-fast`,
    CI's first step) leave them out, and CI runs them one at a time after. Among them, in the slots
    they hold, the order that starts each stack once (see the module's docstring)."""
    here = Path(__file__).parent
    slots = [i for i, item in enumerate(items) if here in Path(str(item.fspath)).parents]
    for i in slots:
        items[i].add_marker(pytest.mark.integration)
    ordered = sorted((items[i] for i in slots), key=_stack_order)  # stable: file order within
    for i, item in zip(slots, ordered, strict=True):
        items[i] = item
