"""Where a web process's CPU goes, per stage of an action: py-spy's samples sorted into stages.

bench/live.py --profile runs `py-spy record` on every web process during the 50-game windows (the real
action's, the floor's and the random phases') and prints, per stage, the CPU milliseconds per action
(each stage's share of the samples times the window's web CPU per action, which /proc measures) for
the real action, the floor, and their difference: where the real action's cost above the floor goes.

A sample belongs to the stage of the frame nearest its leaf that names one (STAGES, first pattern that
matches a frame's file wins): a query run by the action counts as the action's, a template rendered by
a socket as rendering, and frames of no stage (the server, asyncio, threads) count as the server's.

    .venv/bin/python bench/stages.py profile-daphne-50-games-0.txt [more raw files]   # one table
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

# (stage, substrings of a frame's file). Order matters only for a frame two patterns could match.
STAGES: list[tuple[str, tuple[str, ...]]] = [
    (
        "render (templates, board)",
        (
            "games/live/",
            "django/template/",
            "games/templatetags/",
            "games/live/board_view.py",
            "games/live/board_layout.py",
            "django/utils/html.py",
            "django/utils/safestring.py",
            "django/utils/formats.py",
            "django/utils/translation/",
            "django/templatetags/",
        ),
    ),
    ("engine (rules)", ("games/engine/",)),
    (
        "push (broadcast, channel layer)",
        (
            "games/core/broadcast.py",
            "channels_redis/",
            "channels/layers.py",
            "msgpack/",
        ),
    ),
    ("queue tasks (Celery)", ("games/core/task_queue.py", "celery/", "kombu/")),
    ("presence (Redis)", ("games/core/presence.py", "accounts/users/online.py")),
    ("throttle (Redis)", ("ludopat/throttle.py", "django/core/cache/", "django_redis/")),
    (
        "action (lock, engine state, record, save)",
        (
            "games/actions/",
            "games/core/narration.py",
            "games/core/caches.py",
            "games/models.py",
            "games/core/round_ends.py",
            "leaderboard/",
        ),
    ),
    ("reads (game and seats)", ("games/core/selectors.py",)),
    (
        "command (who asks, the form)",
        (
            "games/web/commands.py",
            "games/web/forms.py",
            "games/core/actors.py",
            "django/forms/",
            "ludopat/client_json.py",
        ),
    ),
    (
        "sockets (consumer)",
        (
            "games/web/consumers.py",
            "ludopat/frame_limit.py",
            "channels/",
            "ludopat/worker_threads.py",
        ),
    ),
    (
        "view",
        ("games/web/views.py", "games/web/bench_floor.py", "django/http/", "django/shortcuts.py"),
    ),
    (
        "session, auth, browser",
        (
            "django/contrib/sessions/",
            "django/contrib/auth/",
            "accounts/",
            "django/core/signing.py",
        ),
    ),
    (
        "middleware (the chain, metrics, CSRF, headers)",
        (
            "django/middleware/",
            "django_prometheus/",
            "prometheus_client/",
            "whitenoise/",
            "ludopat/",
            "axes/",
            "django_htmx/",
            "django/contrib/messages/",
            "django/core/handlers/",
            "django/utils/decorators.py",
            "django/views/",
        ),
    ),
]
# Frames that only pass a call through (the bench's own counters of queries and Redis round trips):
# a sample in them belongs to their caller's stage.
THROUGH = ("(games/web/bench_floor.py:",)
THROUGH_FUNCTIONS = ("_count_query", "send", "send_async", "_count", "_on_connection")
# A thread waiting for work, not working (py-spy may sample one as active): left out of every stage.
IDLE_LEAVES = (
    "_worker (concurrent/futures/thread.py:81)",
    "get (queue.py:",
    "wait (threading.py:",
    "select (selectors.py:",
    "_wait_for_tstate_lock (threading.py:",
)
IDLE = "idle (waiting threads, left out)"
SQL = ("django/db/", "psycopg/", "psycopg_pool/")  # counted again, inside whichever stage ran it
SERVER = "server (HTTP, WebSocket frames, threads, event loop)"
FRAME = re.compile(r"\((?P<file>[^:()]+):\d*\)$")


def _through(frame: str) -> bool:
    return any(t in frame for t in THROUGH) and frame.split(" ", 1)[0] in THROUGH_FUNCTIONS


def stage_of(frames: list[str]) -> str:
    if frames and any(frames[-1].startswith(leaf) for leaf in IDLE_LEAVES):
        return IDLE
    for frame in reversed(frames):  # leaf first
        if _through(frame):
            continue
        found = FRAME.search(frame)
        path = found.group("file") if found else frame
        for stage, patterns in STAGES:
            if any(p in path for p in patterns):
                return stage
    return SERVER


def samples(lines: Iterable[str]) -> Counter[str]:
    """py-spy's raw (collapsed) lines, `frame;frame;...;leaf count`, into samples per stage, plus
    the samples with a SQL frame (key "of which SQL") and the total ("all")."""
    counts: Counter[str] = Counter()
    for line in lines:
        stack, _, number = line.rstrip().rpartition(" ")
        if not stack or not number.isdigit():
            continue
        frames = stack.split(";")
        n = int(number)
        stage = stage_of(frames)
        if stage == IDLE:
            continue
        counts[stage] += n
        if any(any(s in f for s in SQL) for f in frames):
            counts["of which SQL (compile, execute)"] += n
        counts["all"] += n
    return counts


def read(paths: Iterable[Path]) -> Counter[str]:
    total: Counter[str] = Counter()
    for path in paths:
        if path.exists():
            total += samples(path.read_text(errors="replace").splitlines())
    return total


def per_action(counts: Counter[str], cpu_ms: float) -> dict[str, float]:
    """Each stage's CPU milliseconds per action: its share of the samples times the measured CPU."""
    if not counts["all"]:
        return {}
    return {k: cpu_ms * n / counts["all"] for k, n in counts.items() if k != "all"}


def order() -> list[str]:
    return [s for s, _ in STAGES] + [SERVER, "of which SQL (compile, execute)"]


def table(columns: dict[str, dict[str, float]]) -> str:
    """Stages as rows, one column per window (ms of web CPU per action), and real - floor."""
    names = list(columns)
    lines = [f"{'stage':52} " + " ".join(f"{n:>12}" for n in names)]
    diff = len(names) >= 2
    if diff:
        lines[0] += f" {names[0] + ' - ' + names[1]:>22}"
    for stage in order():
        values = [columns[n].get(stage, 0.0) for n in names]
        line = f"{stage:52} " + " ".join(f"{v:12.1f}" for v in values)
        if diff:
            line += f" {values[0] - values[1]:22.1f}"
        lines.append(line)
    totals = [sum(v for k, v in columns[n].items() if not k.startswith("of which")) for n in names]
    line = f"{'total (web CPU per action, ms)':52} " + " ".join(f"{v:12.1f}" for v in totals)
    if diff:
        line += f" {totals[0] - totals[1]:22.1f}"
    lines.append(line)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    counts = read(Path(a) for a in argv)
    print(table({"share %": per_action(counts, 100.0)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
