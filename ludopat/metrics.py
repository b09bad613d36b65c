"""The site's own Prometheus metrics, all defined here; the code that feeds them calls one line each.

Daphne processes and Celery workers (and a prefork worker's children) are separate processes, so with
PROMETHEUS_MULTIPROC_DIR set (it must be in the environment before any process starts, and emptied at
each boot) every process writes its values to files in that folder and `/metrics`, in any process of the
machine, adds them up (`exposition`). Without it (development, tests) a process reports only itself.

The metrics (docs/operations.md, "Metrics and health"):
- `ludopat_actions_total{kind}`: actions committed to a game's log (players', the computer's, timeouts);
- `ludopat_action_push_seconds{action,via}`: from a player's action reaching the site (a POST, or a
  socket's frame) until its push was handed to the channel layer;
- `ludopat_open_game_sockets`: game pages' WebSockets open now, over the live processes;
- `ludopat_deadline_lateness_seconds{by}`: how long after its deadline a deadline was acted on, by its
  own task or by the sweeper;
- `ludopat_sweep_overdue_deadlines`: how many games' deadlines had passed when the last sweep looked;
- `ludopat_ledger_ok` and `ludopat_ledger_checked_timestamp_seconds`: the last ledger check's outcome.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

ACTIONS = Counter(
    "ludopat_actions",
    "Actions committed to a game's log, by kind (the computer's and timeouts' too).",
    ["kind"],
)
ACTION_PUSH_SECONDS = Histogram(
    "ludopat_action_push_seconds",
    "From a player's action reaching the site until its push was handed to the channel layer.",
    ["action", "via"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
# livesum: the sum over the processes alive now; a daphne that died takes its sockets with it.
OPEN_SOCKETS = Gauge(
    "ludopat_open_game_sockets",
    "Game pages' WebSockets open now.",
    multiprocess_mode="livesum",
)
DEADLINE_LATENESS = Histogram(
    "ludopat_deadline_lateness_seconds",
    "How long after its deadline a deadline was acted on, by its task or by the sweeper.",
    ["by"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0),
)
# mostrecent: the value of the last sweep, whichever worker process ran it.
SWEEP_BACKLOG = Gauge(
    "ludopat_sweep_overdue_deadlines",
    "Games whose deadline had passed when the last sweep looked (at most 500 a sweep).",
    multiprocess_mode="mostrecent",
)
LEDGER_OK = Gauge(
    "ludopat_ledger_ok",
    "1 if the last ledger check found the ledger sound, 0 if it found problems.",
    multiprocess_mode="mostrecent",
)
LEDGER_CHECKED = Gauge(
    "ludopat_ledger_checked_timestamp_seconds",
    "When the last ledger check ran (Unix time).",
    multiprocess_mode="mostrecent",
)


def action_committed(kind: str) -> None:
    ACTIONS.labels(kind).inc()


@dataclass
class _Timing:
    action: str
    via: str
    started: float
    pushed: bool = False


# The player's action being handled in this context (a request's, or a socket frame's worker call,
# which copies the context): the push sent on its commit, in the same context, ends its timing.
_timing: ContextVar[_Timing | None] = ContextVar("action_timing", default=None)


@contextmanager
def timing_action(action: str, *, via: str) -> Iterator[None]:
    """While a player's action `action` arrived by `via` ("post", "socket") is handled."""
    token = _timing.set(_Timing(action, via, time.perf_counter()))
    try:
        yield
    finally:
        _timing.reset(token)


def action_pushed() -> None:
    """A push went to a game's viewers: the first one of a timed action ends its timing."""
    timing = _timing.get()
    if timing is None or timing.pushed:  # not a player's action (a task's), or pushed already
        return
    timing.pushed = True
    ACTION_PUSH_SECONDS.labels(timing.action, timing.via).observe(
        time.perf_counter() - timing.started
    )


def deadline_acted(*, deadline: datetime, now: datetime, swept: bool) -> None:
    late = max((now - deadline) / timedelta(seconds=1), 0.0)
    DEADLINE_LATENESS.labels("sweeper" if swept else "task").observe(late)


def ledger_checked(*, sound: bool, when: datetime) -> None:
    LEDGER_OK.set(1 if sound else 0)
    LEDGER_CHECKED.set(when.timestamp())


def _multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


_LIVE_FILE = re.compile(r"^gauge_live\w*?_(\d+)\.db$")


def _forget_dead_processes(folder: str) -> None:
    """A live gauge (the open sockets) must not count a process that died without saying so (a
    daphne killed or restarted): its files go. Counters and histograms keep theirs: what a dead
    process counted stays counted."""
    pids = {int(m.group(1)) for name in os.listdir(folder) if (m := _LIVE_FILE.match(name))}
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, folder)
        except PermissionError:  # alive, another user's
            pass


def exposition() -> tuple[bytes, str]:
    """The metrics page's body and content type: every process of this machine's (multiprocess
    mode), or this process's own."""
    folder = _multiprocess_dir()
    if not folder:
        return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
    _forget_dead_processes(folder)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)
    return generate_latest(registry), CONTENT_TYPE_LATEST
