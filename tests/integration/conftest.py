"""Integration tests: a real Celery worker and beat (subprocesses) on the test database and the session's
Redis, as `make run` starts them, with the timers of timed rooms firing for real.

The worker and beat start at the first test of this package and stop after its last one (before the
browser tests start their own stack). They run tests/integration/settings.py. Tests use
`django_db(transaction=True)`: what they write is committed, so the worker sees it, and the tables are
flushed afterwards. Redis is never flushed while the worker runs (it would lose the queue's binding).
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

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


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list
) -> None:
    """Every test under tests/integration is an integration test: the parallel runs (`make test-fast`,
    CI's first step) leave them out, and CI runs them one at a time after."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.integration)
