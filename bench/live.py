"""How fast does a move reach every board? The whole live path, measured as browsers see it.

    .venv/bin/python bench/live.py                      # daphne then uvicorn, each: 10/50/200 games + ramp
    .venv/bin/python bench/live.py --server daphne      # one server only
    .venv/bin/python bench/live.py --quick              # a short run (10 and 50 games, short ramp)
    .venv/bin/python bench/live.py --server daphne --quick --before /path/to/checkout   # A B A B, medians

It starts the site as production runs it here: PostgreSQL (DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ludopat_live, created if missing, migrated and flushed before each
server's run), Redis (REDIS_URL, default redis://127.0.0.1:6379/6, that db flushed before each run; the
channel layer, the cache and the Celery broker all derive from it), `--processes` ASGI server processes
(daphne, or `--server uvicorn` serving the same ludopat.asgi:application), a Celery worker and beat.

Then it creates friends rooms of two players (`--seats` 3 or 4: more) between real accounts (accounts and sessions written directly:
no PBKDF2 log-ins), and for each game opens both seats' WebSockets and one spectator's as a browser does
(session cookie, Origin header, /ws/games/<id>/, a heartbeat every 25 s), each page on a process of
its own choosing as a reverse proxy spreads connections (with `--processes` above 1, a game's pages are
not kept together; a page's POSTs go where its socket went). Each game acts once per interval: the
player whose board says it is their turn rolls, or moves a token it offers, with a POST as the page
does (htmx headers, CSRF cookie and header; `--via ws` sends the same command over the WebSocket). The
games take turns evenly over the interval, so the site sees a steady rate (`--arrivals random` adds,
after the steady 50-game window, the same window with each game at a random phase of its own: some
games fall together, the same burst recurs every interval, and the bench checks that its p99 is at
most twice the steady one with no errors). Each viewer is a browser: it loads the game page first and
keeps every cookie the site sets (the browser's id, the CSRF secret), sending them back on each POST
and socket. Latency = from sending the action to the updated board (a version above the one acted on)
having reached both seats and the spectator (the actor's POST answer counts for the actor's page).
An action whose board hasn't reached everyone after 5 s, a refused action or a dropped socket is an
error.

Windows (10 s each, `--window-seconds`): 10, 50 and 200 games acting every 2 s, then a ramp of target rates over all the games to find
the capacity: the highest actions/s achieved with p99 under 100 ms and no errors. For each window it
prints p50/p99/max, actions/s, errors, CPU milliseconds per action (from /proc: the web processes, the
Celery worker and beat, and, shared with anything else on the machine, the PostgreSQL and Redis servers;
also this client) and the RSS of each web process. Everything it started is stopped at the end.

The floor: the 50-game window is measured in four slices of half a window each, real, floor, floor,
real (same games, sockets and rate; a drift of the machine's speed that goes one way falls alike on
both), the floor being the cheapest action the stack allows (games/web/bench_floor.py, on with
LUDOPAT_BENCH_FLOOR=1 in the web processes' environment, which this bench sets): a POST through the
same middleware and rate limit doing one game-and-seats read, the seat check, the row lock, one Action,
the version bump, the commit and one push, which the sockets forward unrendered at the median size of
the pushes the first real slice's sockets got. Each game acts once, unmeasured, before the second real
slice (its first real action after floor actions reads the game's log in full). Each slice is a row
("slice n of 4"), then the slices of each kind summed: "50 games" and "50 floor". Then, per action, real over floor: the web
processes' CPU (the cost ratio), their SQL statements (each one sent, counted by an execute wrapper)
and their Redis round trips (each command or pipeline written by redis-py: cache, throttle, presence,
channel layer), their full-board renders (the template games/_live.html) and the frames every socket
got, summed; Celery's are not in these counts. With `--via ws` the floor is sent over the socket too
(the socket floor). The last line: `live p99=X ms at 50 games, capacity C actions/s, cost ratio R vs
floor, W ms web CPU per action (B before)` (for the first server of `--server`), after the burst
checks' lines with --arrivals random (the random phases' p99 over the steady one, and the real
action's over the floor's at the same phases).

`--before PATH` (a checkout of another commit, its .venv made): this file runs that tree and this one
alternately, twice each, each run a process of its own with its tree's Python and code and a database
of its own, PATH running this tree's games/web/bench_floor.py meanwhile; it prints each run, each
tree's medians and the last line from them, B being the PATH tree's web CPU per action. Each page's
board is a model (bench/board_model.py) that takes whole boards and region pushes alike, so the
same bench drives a tree that pushes whole boards. --profile runs py-spy on the web processes during the 50-game windows and
prints their web CPU per action by stage (bench/stages.py), real, floor and the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

# The tree whose site is measured: this checkout, or (a child run of --before) the one the parent names.
HERE = Path(__file__).resolve().parents[1]
ROOT = Path(os.environ.get("LUDOPAT_BENCH_TREE") or HERE).resolve()
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent


def _board_model():
    """bench/board_model.py of this checkout (a --before run's ROOT is the other tree, which may lack it)."""
    spec = importlib.util.spec_from_file_location(
        "bench_board_model", HERE / "bench" / "board_model.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


board_model = _board_model()
BoardModel = board_model.BoardModel

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/ludopat_live"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/6"
# --profile: the windows py-spy samples, and their columns in the stage table (real - floor last).
PROFILED = {"50 games": "real", "50 floor": "floor", "50 random": "random"}
# The 50-game window's slices, in this order, once per `--slices` 4 (`measure`'s real_and_floor).
PAIRED_SLICES = ("real", "floor", "floor", "real")
LOST_AFTER = 5.0  # seconds: an action whose board hasn't reached every viewer by then is an error
P99_LIMIT_MS = 100.0
HEARTBEAT = 25.0  # as the page's heartbeat form
CLK_TCK = os.sysconf("SC_CLK_TCK")

VERSION_RE = re.compile(r'data-version="(\d+)"')
CHANNEL_RE = re.compile(r'data-channel="([^"]+)"')
# A movable token's button, whatever attributes sit between its class and its token (an id does).
OPTIONS_RE = re.compile(
    r'class="token-button[^"]*\bmovable\b[^"]*"[^>]*? data-token="([^"]+)" data-options=\'([^\']*)\''
)


# --- small helpers -----------------------------------------------------------------------------------


def random_offsets(seed: int, games: int, interval: float) -> list[float]:
    """Each game's phase in the interval for `--arrivals random`: the same for every run of a seed
    (and bench/burst_model.py feeds the same ones to its queues)."""
    phases = random.Random(seed)
    return [phases.uniform(0, interval) for _ in range(games)]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, log: Path, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {timeout} s")


def local_only(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost"):
        raise SystemExit(f"bench/live.py talks to 127.0.0.1 only, not {host}")


# --- CPU and memory from /proc -----------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the 3rd (state) on


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields:
                kids.setdefault(int(fields[1]), []).append(int(entry))
    return kids


def tree_cpu(roots: list[int], kids: dict[int, list[int]]) -> float:
    """CPU seconds of the processes under `roots`, including their children that already exited."""
    total = 0
    todo = list(roots)
    seen = set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        fields = _stat(pid)
        if fields is None:
            continue
        # utime, stime, cutime, cstime: fields 14..17 of stat, 11..14 counted from the state field.
        total += sum(int(x) for x in fields[11:15])
        todo.extend(kids.get(pid, []))
    return total / CLK_TCK


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def shared_servers() -> dict[str, list[int]]:
    """PostgreSQL's postmaster and the Redis server on 6379: shared with whatever else runs here."""
    found: dict[str, list[int]] = {"postgres*": [], "redis*": []}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        comm = _comm(pid)
        if comm == "postgres" or comm == "postmaster":
            fields = _stat(pid)
            if fields and _comm(int(fields[1])) not in ("postgres", "postmaster"):
                found["postgres*"].append(pid)
        elif comm == "redis-server":
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if b":6379" in cmdline or b" 6379" in cmdline:
                found["redis*"].append(pid)
    return found


# --- the site's processes ----------------------------------------------------------------------------


@dataclass
class Stack:
    server: str
    processes: int
    env: dict
    logs: Path
    web: list[subprocess.Popen] = field(default_factory=list)
    celery: list[subprocess.Popen] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen:
        handle = (self.logs / f"{name}.log").open("ab")
        return subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=handle, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopping it reaches its children
        )  # fmt: skip

    def start(self) -> None:
        celery = str(BIN / "celery")
        self.celery.append(
            self._spawn(
                f"{self.server}-worker",
                [
                    celery,
                    "-A",
                    "ludopat",
                    "worker",
                    "--loglevel",
                    "WARNING",
                    "--concurrency",
                    "2",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "-n",
                    "live@%h",
                ],
            )
        )
        self.celery.append(
            self._spawn(
                f"{self.server}-beat",
                [
                    celery,
                    "-A",
                    "ludopat",
                    "beat",
                    "--loglevel",
                    "WARNING",
                    "--schedule",
                    str(self.logs / f"{self.server}-celerybeat-schedule"),
                ],
            )
        )
        for n in range(self.processes):
            port = free_port()
            if self.server == "daphne":
                # -v 0: no access log (the reverse proxy keeps it), as uvicorn's --no-access-log.
                command = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "-v", "0",
                           "ludopat.asgi:application"]  # fmt: skip
            else:
                command = [str(BIN / "uvicorn"), "ludopat.asgi:application", "--host", "127.0.0.1",
                           "--port", str(port), "--no-access-log", "--log-level", "warning",
                           "--lifespan", "off"]  # fmt: skip
            self.web.append(self._spawn(f"{self.server}-{n}", command))
            self.ports.append(port)
        for port, proc, n in zip(self.ports, self.web, range(self.processes), strict=True):
            wait_for_port(port, proc, self.logs / f"{self.server}-{n}.log")

    def stop(self) -> None:
        procs = self.web + self.celery
        for proc in procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)

    def web_cpu(self) -> float:
        return tree_cpu([p.pid for p in self.web], _children())

    def cpu(self) -> dict[str, float]:
        kids = _children()
        shared = shared_servers()
        times = os.times()
        return {
            "web": tree_cpu([p.pid for p in self.web], kids),
            "celery": tree_cpu([p.pid for p in self.celery], kids),
            "postgres*": tree_cpu(shared["postgres*"], kids),
            "redis*": tree_cpu(shared["redis*"], kids),
            "bench": times.user + times.system,
        }

    def rss(self) -> list[float]:
        return [rss_mb(p.pid) for p in self.web]


# --- the database: accounts, sessions, rooms ---------------------------------------------------------


def prepare_database(env: dict) -> None:
    """Create the bench's database and role if missing, and migrate it (its own database only).

    Every consumer call may hold a connection of its own (there is no pool): under overload the site
    opens as many as it has busy consumers. PostgreSQL exempts superusers from connection limits, so
    the site runs as a role of its own (named as the database, owner of it) limited to half the
    server's slots: others sharing this PostgreSQL keep theirs, and beyond the limit our requests
    fail (and are counted). DATABASE_URL's user only creates the role and the database.
    """
    import psycopg

    url = urlsplit(env["DATABASE_URL"])
    name = url.path.lstrip("/")
    if name in ("postgres", "test", "template0", "template1", "") or not name.isidentifier():
        raise SystemExit(f"bench/live.py will not use the {name!r} database: give it its own")
    admin = env["DATABASE_URL"].rsplit("/", 1)[0] + "/template1"
    with psycopg.connect(admin, autocommit=True) as conn:
        slots = int(conn.execute("SHOW max_connections").fetchone()[0]) // 2
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name]).fetchone():
            conn.execute(f"CREATE ROLE {name} LOGIN")
        conn.execute(f"ALTER ROLE {name} CONNECTION LIMIT {slots}")
        owner = conn.execute(
            "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if owner is not None and owner[0] != name:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")  # ours, made by an older run
            owner = None
        if owner is None:
            conn.execute(f"CREATE DATABASE {name} OWNER {name}")
    env["DATABASE_URL"] = f"postgres://{name}@{url.hostname}:{url.port or 5432}/{name}"
    env["LUDOPAT_BENCH_DB_SLOTS"] = str(slots)
    os.environ.update(env)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


def flush(env: dict) -> None:
    import redis
    from django.core.management import call_command
    from django.db import connection

    connection.close()
    call_command("flush", interactive=False, verbosity=0)
    redis.Redis.from_url(env["REDIS_URL"]).flushdb()


@dataclass
class Person:
    username: str
    user_id: int
    session: str
    key: str


def make_people(count: int) -> list[Person]:
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from games.core.actors import PLAYER_KEY

    User = get_user_model()
    unusable = make_password(None)  # no PBKDF2: these accounts never log in with a password
    User.objects.bulk_create(
        [User(username=f"live{n}", password=unusable) for n in range(count)], batch_size=500
    )
    users = list(User.objects.filter(username__startswith="live").order_by("pk"))
    store = SessionStore()
    expires = timezone.now() + timezone.timedelta(days=1)
    people, rows = [], []
    for user in users:
        key, sid = secrets.token_urlsafe(24), secrets.token_hex(16)
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
            PLAYER_KEY: key,
        }
        rows.append(Session(session_key=sid, session_data=store.encode(data), expire_date=expires))
        people.append(Person(user.username, user.pk, sid, key))
    Session.objects.bulk_create(rows, batch_size=500)
    return people


def make_rooms(people: list[Person], count: int, seats: int = 2) -> list[str]:
    """`count` started classic friends rooms of `seats` players (no timer), as tests/factories.py's
    friends_room makes them: the host, the guests who joined, then a spectator, each."""
    from games import actions
    from games.core.actors import Actor
    from games.models import Seat

    ids = []
    per = seats + 1
    for n in range(count):
        host, *guests = people[per * n : per * n + seats]
        as_host = Actor(host.user_id, host.key, host.username)
        specs = [actions.SeatSpec(Seat.Kind.HUMAN)]
        specs += [actions.SeatSpec(Seat.Kind.OPEN) for _ in guests]
        game = actions.create_game(as_host, "friends", "classic", {}, specs)
        for guest in guests:
            actions.do_join(game.pk, Actor(guest.user_id, guest.key, guest.username))
        actions.do_start(game.pk, as_host)
        ids.append(str(game.pk))
    return ids


# --- reading a board: the one place that knows what a board message looks like ------------------------


def floor_version(message: str) -> int | None:
    """The version a floor frame moves to (games/web/bench_floor.py: the version moved, the board did
    not), None for any other message.

    >>> floor_version('<div id="game-live" data-version="7" data-floor="1">xx</div>')
    7
    >>> floor_version('<div id="game-live" data-version="7">xx</div>') is None
    True
    """
    head = message[:200]
    if 'id="game-live"' not in head or 'data-floor="1"' not in head:
        return None
    found = VERSION_RE.search(head)
    return int(found.group(1)) if found else None


def offer_of(model: board_model.BoardModel) -> tuple[str, dict] | None:
    """The action a page's board (its model) offers its viewer: a roll, one of the moves (chosen at
    random), "over" for a finished game, or nothing; without the version (the bench adds the newest)."""
    choices = model.actions()
    if choices:
        name, values = random.choice(choices)
        return name, {k: v for k, v in values.items() if k != "version"}
    if model.status == "finished":
        return "over", {}
    return None


# --- the browsers ------------------------------------------------------------------------------------


@dataclass
class Window:
    """One measured period: the actions sent in it and what became of them."""

    name: str
    games: int
    target: float  # actions/s asked for
    seconds: float = 0.0
    sent: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    busy: int = 0  # ticks skipped: the game's previous action hadn't reached everyone yet
    cpu: dict[str, float] = field(default_factory=dict)
    rss: list[float] = field(default_factory=list)
    error_kinds: dict[str, int] = field(default_factory=dict)
    floor_size: int = 0  # above 0: the floor action (games/web/bench_floor.py), pushes of this size
    push_sizes: list[int] = field(default_factory=list)  # characters of each board a socket got
    counts: dict[str, int] = field(default_factory=dict)  # the web processes' queries, round trips
    arrivals: str = "even"  # the games' phases: even (a steady rate) or random (recurring bursts)
    profiles: list[Path] = field(default_factory=list)  # py-spy's samples of each web process
    frames: int = 0  # frames the sockets received in the window, all sockets summed
    # What the sockets' board models made of the board frames (all sockets summed): whole boards,
    # region pushes, the regions those carried, gaps (a resync asked), old pushes dropped.
    followed: dict[str, int] = field(default_factory=dict)
    part: int = (
        0  # a slice of a window measured in turns with another (`paired_windows`): its number
    )

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    @property
    def done(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    def ms(self, p: float) -> float:
        return percentile(self.latencies, p) * 1000

    @property
    def passed(self) -> bool:
        return self.done > 0 and self.errors == 0 and self.ms(99) < P99_LIMIT_MS

    @classmethod
    def merged(cls, parts: list[Window]) -> Window:
        """One window of `parts` (the slices of one kind, `paired_windows`): their actions, errors,
        seconds, CPU, counts and frames summed; the first's name, games, rate and floor size.

        >>> a = Window("50 games", 50, 25.0, seconds=5, latencies=[0.01], cpu={"web": 0.5})
        >>> b = Window("50 games", 50, 25.0, seconds=5, latencies=[0.03], cpu={"web": 0.3})
        >>> m = Window.merged([a, b])
        >>> (m.name, m.seconds, m.done, m.cpu["web"], m.rate)
        ('50 games', 10.0, 2, 0.8, 0.2)
        """
        first = parts[0]
        out = cls(first.name, first.games, first.target, floor_size=first.floor_size)
        out.arrivals, out.rss = first.arrivals, parts[-1].rss
        for part in parts:
            out.seconds += part.seconds
            out.sent += part.sent
            out.latencies += part.latencies
            out.errors += part.errors
            out.busy += part.busy
            out.frames += part.frames
            out.push_sizes += part.push_sizes
            out.profiles += part.profiles
            for into, add in ((out.cpu, part.cpu), (out.counts, part.counts)):
                for key, value in add.items():
                    into[key] = into.get(key, 0) + value
            for into, add in ((out.error_kinds, part.error_kinds), (out.followed, part.followed)):
                for key, value in add.items():
                    into[key] = into.get(key, 0) + value
        return out


@dataclass
class Pending:
    after: int  # the version acted on: a board above it is the answer
    sent_at: float
    waiting: set[int]
    window: Window


class Viewer:
    """One browser tab on a game: a seat's (index 0 to seats-1) or the spectator's (the last)."""

    def __init__(self, game: LiveGame, index: int, person: Person, port: int):
        self.game, self.index, self.person, self.port = game, index, person, port
        # The page's board as it was sent: whole boards and region pushes (bench/board_model.py).
        self.model = BoardModel()
        self.resyncing = False  # asked for the whole board after a gap, not yet sent it
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.http: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        # The browser's cookie jar: what the site sets is sent back on every later request and socket,
        # as a browser does (without it every POST would be a new browser to the site: a browser row
        # recorded and the session saved again, on every action). The CSRF secret starts as one of
        # ours (32 characters, which Django accepts as is) until the site sets its own.
        self.cookies = {"sessionid": person.session, "csrftoken": secrets.token_hex(16)}
        self.channel = ""
        self.loaded = False  # the game page was loaded (its cookies kept)

    @property
    def version(self) -> int:
        """The version the page shows (-1 before its first board)."""
        return int(self.model.version)

    @property
    def offer(self) -> tuple[str, dict] | None:
        """What the page's board offers its viewer now (`offer_of`)."""
        return offer_of(self.model)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def keep_cookies(self, set_cookies: list[str]) -> None:
        """Each Set-Cookie of an answer into the jar (an expired one out), as a browser keeps them."""
        for line in set_cookies:
            pair, *attributes = (part.strip() for part in line.split(";"))
            name, _, value = pair.partition("=")
            gone = any(
                a.lower().replace(" ", "") in ("max-age=0", "max-age=-1") for a in attributes
            )
            if gone or not value or value == '""':
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value

    async def load_page(self) -> None:
        """GET the game page, as the browser loads it before its socket opens: the site's cookies
        (the browser's own id, the CSRF secret) come with the answer and are kept."""
        status, _ = await self.request("GET", f"/games/{self.game.id}/", {})
        if status != 200:
            raise RuntimeError(f"the page of {self.game.id} answered {status}")
        self.loaded = True

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/games/{self.game.id}/",
            origin=self.origin,
            additional_headers={"Cookie": self.cookie_header()},
            max_size=None,
            open_timeout=30,
        )
        # As the page does when its socket opens: name the version it shows (the server sends the
        # board if it has a newer one; a page that was never loaded here shows none, -1).
        await self.ws.send(json.dumps({"resync": self.version}))
        async with asyncio.timeout(30):
            while self.version < 0 or (not self.model.wholes and self.index < self.game.seats):
                await self.take(await self.ws.recv())
        if self.reader is None:
            self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        """Every frame until the bench stops; a dropped socket is an error, and is reopened after a
        second as htmx's ws extension does (the server sends the whole board on connect)."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        bench = self.game.bench
        while not bench.stopping:
            try:
                async for message in self.ws:
                    await self.take(message, pushed=True)
            except ConnectionClosed:
                pass
            if bench.stopping:
                return
            bench.fault("socket closed", self.game)
            while not bench.stopping:
                await asyncio.sleep(1.0)
                try:
                    await self.connect()
                    break
                except (TimeoutError, OSError, InvalidHandshake, ConnectionClosed):
                    bench.reconnect_failures += 1

    async def take(self, message: str, pushed: bool = False) -> None:
        """A frame of the socket: as the page does, a push from a version the page doesn't show (it
        missed one) makes it ask for the whole board, once until the board comes."""
        if self.seen(message, pushed=pushed) == board_model.GAP and not self.resyncing:
            self.resyncing = True
            await self.ws.send(json.dumps({"resync": -1}))

    def seen(self, message: str, now: float | None = None, pushed: bool = False) -> str:
        """Take a frame or a POST's answer into the page's model; what became of it (board_model's
        WHOLE, PUSH, OLD, GAP or OTHER; a floor frame is a PUSH that swaps no region)."""
        window = self.game.bench.window
        if pushed and window is not None:
            window.frames += 1
        if 'id="live-socket"' in message[:100]:
            # The socket's name, which the page's POSTs carry (X-Live-Socket) so that the server
            # doesn't push this page the board the POST's answer brings (newer code only).
            found = CHANNEL_RE.search(message)
            self.channel = found.group(1) if found else ""
            return board_model.OTHER
        floor = floor_version(message)
        if floor is not None:
            if floor <= self.version:
                return board_model.OLD
            self.model.moved(floor)
            result = board_model.PUSH
        else:
            swapped = self.model.regions_swapped
            result = self.model.apply(message)
            if result == board_model.OTHER:
                if "toast-error" in message:
                    self.game.bench.fault("refused (toast)", self.game)
                return result
            if pushed and window is not None:
                window.followed[result] = window.followed.get(result, 0) + 1
                window.followed["regions"] = (
                    window.followed.get("regions", 0) + self.model.regions_swapped - swapped
                )
            if result in (board_model.OLD, board_model.GAP):
                return (
                    result  # OLD: a push that crossed a newer POST answer; the page keeps the newer
                )
            if result == board_model.WHOLE:
                self.resyncing = False
            if pushed and window is not None:
                window.push_sizes.append(len(message))
        self.game.reached(self.index, self.version, now or time.perf_counter())
        return result

    async def post(self, path: str, values: dict) -> tuple[int, str]:
        """One htmx POST, as the page sends it."""
        return await self.request("POST", path, values)

    async def request(self, method: str, path: str, values: dict) -> tuple[int, str]:
        """One request with the jar's cookies on a kept-alive connection (reopened if the server
        closed it); a POST as htmx sends it (its headers, the CSRF cookie's secret in X-CSRFToken)."""
        body = urlencode(values).encode() if method == "POST" else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nCookie: {self.cookie_header()}\r\n"
        if method == "POST":
            head += (
                f"X-CSRFToken: {self.cookies.get('csrftoken', '')}\r\nHX-Request: true\r\n"
                f"HX-Target: game-live\r\nOrigin: {self.origin}\r\n"
                f"Referer: {self.origin}/games/{self.game.id}/\r\n"
                + (f"X-Live-Socket: {self.channel}\r\n" if self.channel else "")
                + "Content-Type: application/x-www-form-urlencoded; charset=UTF-8\r\n"
                f"Content-Length: {len(body)}\r\n"
            )
        request = (head + "\r\n").encode() + body
        for attempt in (1, 2):
            if self.http is None:
                self.http = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.http
            try:
                writer.write(request)
                status, text, set_cookies = await _response(reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                self.http = None
                if attempt == 2:
                    raise
            else:
                self.keep_cookies(set_cookies)
                return status, text
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        if self.http is not None:
            self.http[1].close()


async def _response(reader: asyncio.StreamReader) -> tuple[int, str, list[str]]:
    """An HTTP/1.1 answer: its status, its body and its Set-Cookie headers."""
    status_line = await reader.readuntil(b"\r\n")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    set_cookies: list[str] = []
    while True:
        line = await reader.readuntil(b"\r\n")
        if line == b"\r\n":
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
        if name.strip().lower() == "set-cookie":
            set_cookies.append(value.strip())
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append(await reader.readexactly(size + 2))
            if size == 0:
                break
        body = b"".join(p[:-2] for p in parts)
    else:
        body = await reader.read()
    return status, body.decode("utf-8", "replace"), set_cookies


async def web_counts(ports: list[int]) -> dict[str, int]:
    """The SQL statements and Redis round trips (a command or a pipeline written) of every web process
    so far, as games/web/bench_floor.py counts them (LUDOPAT_BENCH_FLOOR=1), summed."""
    total = {"queries": 0, "redis_round_trips": 0}  # an older tree's floor counts no renders
    for port in ports:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            head = f"GET /games/bench-floor/counts HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            writer.write(head.encode())
            status, body, _ = await _response(reader)
        finally:
            writer.close()
        if status != 200:
            raise RuntimeError(f"the web process on {port} answered {status} for its counts")
        for key, value in json.loads(body).items():
            total[key] = total.get(key, 0) + value
    return total


class LiveGame:
    def __init__(self, bench: Bench, game_id: str, people: list[Person], ports: list[int]):
        self.bench, self.id = bench, game_id
        self.seats = len(people) - 1  # the players; the last page is the spectator's
        self.viewers = [
            Viewer(self, i, p, port) for i, (p, port) in enumerate(zip(people, ports, strict=True))
        ]
        self.players = self.viewers[: self.seats]
        self.pending: Pending | None = None
        self.over = False

    def reached(self, index: int, version: int, now: float) -> None:
        pending = self.pending
        if pending is None or version <= pending.after:
            return
        pending.waiting.discard(index)
        if not pending.waiting:
            pending.window.latencies.append(now - pending.sent_at)
            self.pending = None

    def next_action(self) -> tuple[Viewer, str, dict] | None:
        """The seat showing the newest board whose board offers an action (its model's)."""
        newest = max(v.version for v in self.players)
        offers = [(seat, seat.offer) for seat in self.players]
        for seat, offer in offers:
            if seat.version == newest and offer is not None and offer[0] != "over":
                name, values = offer
                return seat, name, {"version": newest, **values}
        if any(offer is not None and offer[0] == "over" for _, offer in offers):
            self.over = True
        return None

    async def act(self, window: Window, via: str) -> None:
        if self.over and not window.floor_size:
            return
        if self.pending is not None:
            if time.perf_counter() - self.pending.sent_at > LOST_AFTER:
                self.pending.window.error("board not everywhere after 5 s")
                self.pending = None
                for viewer in self.viewers:  # as the page does after a gap
                    with contextlib.suppress(Exception):  # a closed socket reopens on its own
                        await viewer.ws.send(json.dumps({"resync": viewer.version}))
            window.busy += 1
            return
        chosen = self.next_action()
        if window.floor_size:  # the floor: any seat may act (the one to play, if there is one)
            newest = max(v.version for v in self.players)
            seat = chosen[0] if chosen else self.players[0]
            name, values = "bench-floor", {"version": newest, "size": window.floor_size}
        elif chosen is None:
            return
        else:
            seat, name, values = chosen
        everyone = set(range(len(self.viewers)))
        self.pending = Pending(values["version"], time.perf_counter(), everyone, window)
        window.sent += 1
        if via == "ws":
            try:
                await seat.ws.send(json.dumps({"action": name, **values}))
            except Exception as error:  # the socket dropped: it reopens on its own
                self.bench.fault(f"send failed: {type(error).__name__}", self)
            return
        try:
            status, body = await seat.post(f"/games/{self.id}/{name}", values)
        except (OSError, asyncio.IncompleteReadError) as error:
            self.bench.fault(f"POST failed: {type(error).__name__}", self)
            return
        if status != 200:
            self.bench.fault(f"POST {status}", self)
            return
        seat.seen(body, time.perf_counter())


class Bench:
    def __init__(self, stack: Stack, via: str, profile: bool = False, seed: int = 1):
        self.stack, self.via, self.profile = stack, via, profile
        self.seed = seed  # the random arrivals' phases: the same in every run
        self.games: list[LiveGame] = []
        self.window: Window | None = None
        self.stopping = False
        self.connect_failures = 0
        self.reconnect_failures = 0

    def fault(self, kind: str, game: LiveGame | None = None) -> None:
        if self.window is not None:
            self.window.error(kind)
        if game is not None and game.pending is not None:
            game.pending = None

    async def connect(self, rooms: list[tuple[str, list[Person]]]) -> None:
        """Open every viewer's socket, a few at a time, as pages load."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        start = len(self.games)
        # Each page to a process of its own choosing, as a reverse proxy spreads connections: a game's
        # viewers are not kept together (a page's POSTs go where its socket went).
        ports = self.stack.ports
        for n, (game_id, people) in enumerate(rooms):
            per = len(people)
            mine = [ports[(per * (start + n) + k) % len(ports)] for k in range(per)]
            self.games.append(LiveGame(self, game_id, people, mine))
        gate = asyncio.Semaphore(10)

        async def open_one(viewer: Viewer) -> None:
            async with gate:
                for attempt in range(4):  # as htmx's ws extension, retry after a pause
                    try:
                        if not viewer.loaded:
                            await viewer.load_page()  # then its socket, as the page opens it
                        await viewer.connect()
                        return
                    except (TimeoutError, OSError, InvalidHandshake, ConnectionClosed) as error:
                        self.connect_failures += 1
                        if attempt == 3:
                            raise RuntimeError(f"can't open {viewer.game.id}'s socket") from error
                        await asyncio.sleep(1.0 + attempt)

        fresh = [v for g in self.games[start:] for v in g.viewers]
        await asyncio.gather(*(open_one(v) for v in fresh))
        await asyncio.sleep(1.0)  # the presence pushes of the new connections settle

    async def heartbeats(self) -> None:
        while not self.stopping:
            viewers = [v for g in self.games for v in g.viewers]
            if not viewers:
                await asyncio.sleep(1.0)
                continue
            step = HEARTBEAT / len(viewers)
            for viewer in viewers:
                if self.stopping:
                    return
                with contextlib.suppress(Exception):
                    await viewer.ws.send(json.dumps({"heartbeat": "1"}))
                await asyncio.sleep(step)

    async def settle(self, limit: float = 15.0) -> None:
        """Wait until the web processes idle: the last window's backlog must not load the next."""
        end = time.perf_counter() + limit
        last = self.stack.web_cpu()
        while time.perf_counter() < end:
            await asyncio.sleep(0.5)
            now = self.stack.web_cpu()
            if now - last < 0.05 * len(self.stack.web):  # under 10% of a CPU per process
                return
            last = now

    async def warm_up(self, games: int, interval: float) -> None:
        """One real action per game, not measured: the first after floor actions finds no history
        of the version before it (the floor moved the version, not the board) and reads the game's
        log in full, a cost of the bench's switching, not of an action."""
        await self.run_window(Window("warm-up", games, games / interval), interval)

    async def run_window(self, window: Window, seconds: float) -> Window:
        games = self.games[: window.games]
        interval = window.games / window.target
        await self.settle()
        self.window = window
        counted = await web_counts(self.stack.ports)
        before = self.stack.cpu()
        started = time.perf_counter()
        end = started + seconds

        async def drive(game: LiveGame, offset: float) -> None:
            tick = started + offset
            while tick < end:
                await asyncio.sleep(max(0.0, tick - time.perf_counter()))
                await game.act(window, self.via)
                tick += interval

        if (
            window.arrivals == "even"
        ):  # the games take turns: the site sees a steady `target` per second
            offsets = [interval * n / len(games) for n in range(len(games))]
        else:  # each game at a random phase of its own: some fall together, every interval again
            # The same for every random window: the floor meets the bursts the real action met.
            offsets = random_offsets(self.seed, len(games), interval)
        profiled = self.profile and window.name in PROFILED
        spies = self.spy(window, seconds) if profiled else []
        await asyncio.gather(*(drive(g, offset) for g, offset in zip(games, offsets, strict=True)))
        # Let the last actions arrive (they count in this window), then close it.
        drain_end = time.perf_counter() + LOST_AFTER
        while any(g.pending for g in games) and time.perf_counter() < drain_end:
            await asyncio.sleep(0.02)
        for game in games:
            if game.pending is not None and game.pending.window is window:
                window.error("board not everywhere after 5 s")
                game.pending = None
        window.seconds = seconds
        for spy in spies:
            await asyncio.to_thread(spy.wait)
        after = self.stack.cpu()
        window.cpu = {k: after[k] - before[k] for k in after}
        window.counts = {k: v - counted[k] for k, v in (await web_counts(self.stack.ports)).items()}
        window.rss = self.stack.rss()
        self.window = None
        return window

    def spy(self, window: Window, seconds: float) -> list[subprocess.Popen]:
        """py-spy on every web process for the window's length (bench/stages.py reads its samples);
        --nonblocking: pausing the process for every sample slowed an overloaded one down further."""
        spies = []
        for n, proc in enumerate(self.stack.web):
            name = window.name.replace(" ", "-").replace("/", "")
            part = f"-part{window.part}" if window.part else ""  # a slice's file of its own
            out = self.stack.logs / f"profile-{self.stack.server}-{name}-{n}{part}.txt"
            window.profiles.append(out)
            command = [str(BIN / "py-spy"), "record", "--pid", str(proc.pid), "--duration",
                       str(max(1, round(seconds))), "--rate", "100", "--format", "raw",
                       "--nonblocking", "--output", str(out)]  # fmt: skip
            log = (self.stack.logs / "py-spy.log").open("ab")
            spies.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
        return spies

    async def close(self) -> None:
        self.stopping = True
        await asyncio.gather(
            *(v.close() for g in self.games for v in g.viewers), return_exceptions=True
        )


# --- one server's run --------------------------------------------------------------------------------


def ramp_targets(start: float, limit: int) -> list[float]:
    targets, rate = [], start
    for _ in range(limit):
        targets.append(round(rate))
        rate *= 1.5
    return targets


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 1)[0]


async def measure(stack: Stack, rooms, args, deadline: float) -> list[Window]:
    """The fixed-rate windows, the ramp (over the 50-game set, before the 200 games are opened, so an
    overloaded 200-game window can't spoil it), then 200 games; each skipped if the time is short."""
    bench = Bench(stack, args.via, args.profile, args.seed)
    windows: list[Window] = []
    beats = asyncio.create_task(bench.heartbeats())
    left = lambda: deadline - time.monotonic()  # noqa: E731
    step_cost = LOST_AFTER + 5  # drain and settle, roughly, beyond the window itself
    per = args.seats + 1  # sockets per game: the players' and a spectator's

    open_rate = [0.0]  # sockets opened per second, as last measured

    def skip(what: str) -> None:
        print(
            f"{stack.server:8} {what}: not measured, the time budget (--budget) is spent",
            flush=True,
        )

    async def phase(games: int) -> None:
        have = len(bench.games)
        if games > have:
            if left() < args.phase_seconds + step_cost + 10:
                return skip(f"{games} games")
            if open_rate[0] and per * (games - have) / open_rate[0] > left() - args.phase_seconds:
                guess = per * (games - have) / open_rate[0]
                return skip(f"{games} games (their sockets would take about {guess:.0f} s to open)")
            began, retries = time.perf_counter(), bench.connect_failures
            try:
                made = await asyncio.to_thread(rooms, have, games)  # the ORM is sync-only
                await asyncio.wait_for(bench.connect(made), left() - args.phase_seconds - step_cost)
            except TimeoutError:
                return skip(f"{games} games (opening their sockets took too long)")
            took = time.perf_counter() - began
            open_rate[0] = per * (games - have) / took
            print(
                f"{stack.server:8} opened {per * (games - have)} sockets in {took:.1f} s "
                f"({bench.connect_failures - retries} retried)",
                flush=True,
            )
        if left() < args.phase_seconds + step_cost:
            return skip(f"{games} games")
        if games == 50:
            await real_and_floor(games)
        else:
            w = await bench.run_window(
                Window(f"{games} games", games, games / args.interval), args.phase_seconds
            )
            print(row(stack.server, w), flush=True)
            windows.append(w)
        if games == 50 and args.arrivals == "random" and left() > args.phase_seconds + step_cost:
            # The same games at the same rate, each at a random phase of its own: the bursts.
            w = Window("50 random", 50, 50 / args.interval, arrivals="random")
            w = await bench.run_window(w, args.phase_seconds)
            print(row(stack.server, w), flush=True)
            windows.append(w)
        elif games == 50 and args.arrivals == "random":
            skip("50 games at random phases")

    async def real_and_floor(games: int) -> None:
        """The 50-game window: the real action and the floor action (games/web/bench_floor.py,
        pushing frames of the median size of the first real slice's pushes) in turns, on the same
        games, sockets and rate: real, floor, floor, real (`--slices` 8: twice over), the slices
        of each kind a window's length in all. The machine's speed drifts within a run (the same
        tree's ratio moved between 1.05 and 1.41 when the two windows were a minute apart); a drift
        that goes one way falls alike on both, and a burst of another load falls in one slice."""
        order = PAIRED_SLICES * (args.slices // len(PAIRED_SLICES))
        each = args.phase_seconds * 2 / len(order)
        slices: dict[str, list[Window]] = {"real": [], "floor": []}
        size = 0
        for n, kind in enumerate(order, 1):
            if left() < each + args.interval + step_cost:
                skip(f"{games} games, slice {n} of {len(order)}")
                break
            if kind == "floor" and not size:
                pushes = [float(p) for w in slices["real"] for p in w.push_sizes]
                if not pushes:
                    break  # no board reached a socket: nothing to size the floor's pushes by
                size = round(percentile(pushes, 50))
            if kind == "real" and slices["floor"]:
                await bench.warm_up(games, args.interval)
            name = f"{games} games" if kind == "real" else f"{games} floor"
            w = Window(name, games, games / args.interval, part=n)
            w.floor_size = size if kind == "floor" else 0
            w = await bench.run_window(w, each)
            print(f"{row(stack.server, w)}   (slice {n} of {len(order)})", flush=True)
            slices[kind].append(w)
        for kind in ("real", "floor"):
            if slices[kind]:
                w = Window.merged(slices[kind])
                print(row(stack.server, w), flush=True)
                windows.append(w)

    async def floor_window() -> None:
        """The floor under the same bursts as "50 random" (the same phases): what the stack alone
        does with them, so the burst check's ratio can be read against the floor's own."""
        at50 = next((w for w in windows if w.name == "50 floor"), None)
        if at50 is None or args.arrivals != "random":
            return
        if left() < args.phase_seconds + step_cost:
            return skip("the floor at random phases")
        size = at50.floor_size
        w = Window("floor random", 50, 50 / args.interval, floor_size=size, arrivals="random")
        w = await bench.run_window(w, args.phase_seconds)
        print(row(stack.server, w), flush=True)
        windows.append(w)

    try:
        print(f"{stack.server:8} load average {loadavg()} before", flush=True)
        small = [g for g in args.phases if g <= 50]
        for games in small:
            await phase(games)
        ramp_games = len(bench.games)
        # Keep what the big windows will need (their sockets at the rate the last ones opened) unless
        # they can't fit anyway: then the ramp may use all the time.
        big = [g for g in args.phases if g > ramp_games]
        sockets = per * (max(big) - ramp_games) if big else 0
        keep = sockets / max(open_rate[0], 0.1) + len(big) * (args.phase_seconds + step_cost)
        if keep > left():
            keep = 0.0
        for target in ramp_targets(args.ramp_start, args.ramp_steps):
            if ramp_games / target < 0.3:
                break  # a game can't act faster than its board's round trip
            if left() - keep < args.step_seconds + step_cost:
                skip(f"ramp {target}/s")
                break
            w = await bench.run_window(
                Window(f"ramp {target}/s", ramp_games, target), args.step_seconds
            )
            print(row(stack.server, w), flush=True)
            windows.append(w)
            if not w.passed:
                break
        await floor_window()
        for games in args.phases:
            if games > 50:
                await phase(games)
        print(f"{stack.server:8} load average {loadavg()} after", flush=True)
    finally:
        beats.cancel()
        await bench.close()
    return windows


HEADER = (
    f"{'server':8} {'window':14} {'target/s':>8} {'act/s':>6} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'max ms':>7} {'errors':>6} {'busy':>5} | CPU ms/action: {'web':>5} {'celery':>6} "
    f"{'pg*':>5} {'redis*':>6} {'bench':>5} | web RSS MB"
)


def row(server: str, w: Window) -> str:
    per = {k: (v / w.done * 1000 if w.done else float("nan")) for k, v in w.cpu.items()}
    rss = " ".join(f"{r:.0f}" for r in w.rss)
    kinds = ", ".join(f"{k}: {n}" for k, n in w.error_kinds.items())
    return (
        f"{server:8} {w.name:14} {w.target:8.1f} {w.rate:6.1f} {w.ms(50):7.1f} {w.ms(99):7.1f} "
        f"{w.ms(100):7.1f} {w.errors:6d} {w.busy:5d} |               {per['web']:5.1f} "
        f"{per['celery']:6.2f} {per['postgres*']:5.1f} {per['redis*']:6.2f} {per['bench']:5.1f} "
        f"| {rss}" + (f"   ({kinds})" if kinds else "")
    )


def per_action(w: Window) -> dict[str, float]:
    """A window's web CPU ms and counts per action: SQL statements, Redis round trips, full-board
    renders (the web processes'), and the frames every socket got, summed."""
    done = w.done or float("nan")
    return {
        "cpu": w.cpu.get("web", float("nan")) * 1000 / done,
        **{k: v / done for k, v in w.counts.items()},
        "frames": w.frames / done,
    }


COUNTED = (  # the counters printed per action, real against floor: key, words
    ("queries", "SQL statements"),
    ("redis_round_trips", "Redis round trips"),
    ("full_board_renders", "full-board renders"),
    ("frames", "socket frames (all sockets)"),
)


def cost_ratios(windows: list[Window], server: str, quiet: bool = False) -> float:
    """What the real action costs per action at 50 games over what the floor costs, in web CPU (the
    ratio returned), and the counts that don't depend on noise: SQL statements of the web processes,
    their Redis round trips and full-board renders, and the frames the sockets got; printed."""
    real = next((w for w in windows if w.name == "50 games"), None)
    floor = next((w for w in windows if w.name == "50 floor"), None)
    if real is None or floor is None or not real.done or not floor.done:
        if not quiet:
            print(f"{server}: no cost ratio (the 50-game window or the floor was not measured)")
        return float("nan")
    a, b = per_action(real), per_action(floor)
    ratio = a["cpu"] / b["cpu"] if b["cpu"] else float("nan")
    if quiet:
        return ratio
    if real.errors or floor.errors:
        # A lost board makes its pages resync (each a render): an overloaded window's actions count
        # that work too, so its ratio says how badly it was overloaded, not what an action costs.
        print(
            f"{server}: the 50-game window had {real.errors} errors and the floor {floor.errors}: "
            "overloaded, so the ratio below is not an action's cost (the resyncs are in it)"
        )
    counted = "; ".join(
        f"{words} {a.get(key, float('nan')):.1f}/{b.get(key, float('nan')):.1f}"
        for key, words in COUNTED
    )
    print(
        f"{server}: cost ratio vs the floor (pushes of {floor.floor_size} characters, the real "
        f"window's median) per action at 50 games, real/floor: web CPU {a['cpu']:.1f}/"
        f"{b['cpu']:.1f} ms = {ratio:.2f} (the floor's own: {b['cpu']:.1f} ms)"
    )
    print(f"{server}: per action, real/floor: {counted} (web processes; frames: every socket)")
    took = {k: v / real.done for k, v in real.followed.items()}
    print(
        f"{server}: per action at 50 games, the sockets' board models took {took.get('whole', 0):.2f} "
        f"whole boards, {took.get('push', 0):.2f} region pushes ({took.get('regions', 0):.2f} "
        f"regions), {took.get('gap', 0):.3f} gaps (each a resync), {took.get('old', 0):.3f} old pushes"
    )
    return ratio


FLOOR_BURST_LIMIT = 1.5  # the real action's random-phase p99 over the floor's, in the same run


def burst_against_floor(windows: list[Window]) -> tuple[float, str] | None:
    """The real action's p99 at random phases over the floor's at the same phases, and a line."""
    real = next((w for w in windows if w.name == "50 random"), None)
    floor = next((w for w in windows if w.name == "floor random"), None)
    if real is None or floor is None or not real.done or not floor.done:
        return None
    times = real.ms(99) / floor.ms(99)
    verdict = "within" if times <= FLOOR_BURST_LIMIT else "over"
    return times, (
        f"bursts against the floor: random-phase p99 {real.ms(99):.0f} ms real, "
        f"{floor.ms(99):.0f} ms floor = {times:.2f}x: {verdict} the limit ({FLOOR_BURST_LIMIT:g}x)"
    )


BURST_LIMIT = 2.0  # the random phases' p99 may be at most this many times the steady one


def burst_check(windows: list[Window]) -> str | None:
    """The random phases' 50-game window against the steady one of the same run, or None."""
    steady = next((w for w in windows if w.name == "50 games"), None)
    burst = next((w for w in windows if w.name == "50 random"), None)
    if steady is None or burst is None or not steady.done or not burst.done:
        return None
    times = burst.ms(99) / steady.ms(99)
    verdict = "within" if times <= BURST_LIMIT and burst.errors == 0 else "over"
    floor = next((w for w in windows if w.name == "50 floor"), None)
    floor_burst = next((w for w in windows if w.name == "floor random"), None)
    against_floor = ""
    if floor is not None and floor_burst is not None and floor.done and floor_burst.done:
        against_floor = (
            f" (the floor: p99 {floor_burst.ms(99):.0f} ms at random phases, "
            f"{floor_burst.ms(99) / floor.ms(99):.2f}x its steady {floor.ms(99):.0f} ms)"
        )
    return (
        f"bursts: p99={burst.ms(99):.0f} ms at 50 games with random phases, {times:.2f}x the steady "
        f"p99 ({steady.ms(99):.0f} ms), {burst.errors} errors: {verdict} the limit "
        f"({BURST_LIMIT:g}x, 0 errors){against_floor}"
    )


def print_stages(windows: list[Window], server: str) -> None:
    """Where each 50-game window's web CPU went, per stage (bench/stages.py), from py-spy's samples."""
    from bench import stages

    columns = {}
    for name, label in PROFILED.items():  # real and floor first: the table's difference is theirs
        w = next((w for w in windows if w.name == name and w.profiles and w.done), None)
        if w is not None:
            columns[label] = stages.per_action(
                stages.read(w.profiles), w.cpu["web"] * 1000 / w.done
            )
    if columns:
        print(f"{server}: web CPU ms per action by stage (py-spy, bench/stages.py)")
        print(stages.table(columns))


def run_server(server: str, args, env: dict, logs: Path, deadline: float) -> list[Window]:
    flush(env)
    games = max(args.phases)
    per = args.seats + 1  # the players and a spectator
    people = make_people(per * games)
    groups = [people[per * n : per * n + per] for n in range(games)]
    stack = Stack(server, args.processes, env, logs)

    def rooms(start: int, end: int) -> list[tuple[str, list[Person]]]:
        """Rooms for games start..end-1, made when a window first needs them."""
        from django.db import connection

        ids = make_rooms(people[per * start : per * end], end - start, args.seats)
        connection.close()  # the bench holds no connection while it measures
        return list(zip(ids, groups[start:end], strict=True))

    try:
        stack.start()
        return asyncio.run(measure(stack, rooms, args, deadline))
    finally:
        stack.stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with --quick's and --window-seconds' windows worked out.

    >>> a = parse_args(["--quick", "--before", "/tmp/x", "--seats", "4"])
    >>> a.phases, a.phase_seconds, a.seats, a.before, a.budget
    ([10, 50], 5, 4, '/tmp/x', 240.0)
    >>> parse_args([]).budget
    330.0
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="daphne,uvicorn", help="daphne, uvicorn or both")
    parser.add_argument("--processes", type=int, default=1, help="ASGI server processes")
    parser.add_argument("--via", choices=("post", "ws"), default="post")
    parser.add_argument("--interval", type=float, default=2.0, help="s between a game's actions")
    parser.add_argument(
        "--arrivals",
        choices=("even", "random"),
        default="even",
        help="the games' phases: evenly spread (a steady rate) or random (recurring bursts)",
    )
    parser.add_argument("--quick", action="store_true", help="10 and 50 games, short windows")
    parser.add_argument(
        "--seats",
        type=int,
        choices=(2, 3, 4),
        default=2,
        help="players per table (and the floor's)",
    )
    parser.add_argument(
        "--before",
        metavar="PATH",
        help="a checkout of the commit to compare with (its .venv made): the two trees run "
        "alternately, twice each, and the medians are reported",
    )
    parser.add_argument("--summary", help=argparse.SUPPRESS)  # a run's figures as JSON (--before)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="py-spy on the web processes in the 50-game windows: web CPU per action by stage",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--slices",
        type=int,
        default=4,
        help="slices of the 50-game window, real and floor in turns (real, floor, floor, real, "
        "over again): 4 or a multiple of 4",
    )
    parser.add_argument(
        "--window-seconds", type=float, help="length of each fixed-rate window (10 s; --quick: 5 s)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        help="s for each run (330; with --quick --before 240, so the four fit in 20 minutes); "
        "windows that don't fit are skipped (and say so)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.phases, args.phase_seconds, args.step_seconds, args.ramp_steps = [10, 50], 5, 4, 5
    else:
        args.phases, args.phase_seconds, args.step_seconds, args.ramp_steps = (
            [10, 50, 200], 10, 6, 12,
        )  # fmt: skip
    if args.window_seconds:
        args.phase_seconds = args.window_seconds
    if args.budget is None:
        args.budget = COMPARED_QUICK_BUDGET if (args.quick and args.before) else 330.0
    if args.slices < 4 or args.slices % 4:
        parser.error("--slices: 4 or a multiple of 4 (real, floor, floor, real, over again)")
    args.ramp_start = 2.0
    args.servers = [s.strip() for s in args.server.split(",") if s.strip()]
    if not args.servers or any(s not in ("daphne", "uvicorn") for s in args.servers):
        parser.error("--server: daphne, uvicorn, or both separated by a comma")
    return args


# --before --quick: four runs of at most this many seconds of windows each, plus their start (about
# 20 s: the database migrated and flushed, the accounts written), within 20 minutes.
COMPARED_QUICK_BUDGET = 240.0


def median(values: list[float]) -> float:
    """The median of the measured values (NaN, a figure a run could not measure, left out).

    >>> median([3.0, 1.0]), median([1.0, float("nan"), 5.0, 2.0])
    (2.0, 2.0)
    >>> median([float("nan")])
    nan
    """
    kept = sorted(v for v in values if v == v)
    if not kept:
        return float("nan")
    mid = len(kept) // 2
    return kept[mid] if len(kept) % 2 else (kept[mid - 1] + kept[mid]) / 2


def final_line(p99: float, capacity: float, ratio: float, web: float, before: float | None) -> str:
    """The bench's last line (issue 41's shape); `before`: the --before tree's web CPU, if it ran.

    >>> final_line(36.4, 34.25, 1.234, 21.91, 27.0)
    'live p99=36 ms at 50 games, capacity 34.2 actions/s, cost ratio 1.23 vs floor, 21.9 ms web CPU per action (27.0 before)'
    >>> final_line(36.4, 34.0, 1.2, 21.9, None).endswith("21.9 ms web CPU per action (none before)")
    True
    """
    was = "none" if before is None else f"{before:.1f}"
    return (
        f"live p99={p99:.0f} ms at 50 games, capacity {round(capacity, 1):g} actions/s, cost ratio "
        f"{ratio:.2f} vs floor, {web:.1f} ms web CPU per action ({was} before)"
    )


def summary(windows: list[Window], args: argparse.Namespace) -> dict:
    """One server's figures, as the last line and a --before comparison read them."""
    at50 = next((w for w in windows if w.name == "50 games"), None)
    floor = next((w for w in windows if w.name == "50 floor"), None)
    random_real = next((w for w in windows if w.name == "50 random"), None)
    random_floor = next((w for w in windows if w.name == "floor random"), None)
    nan = float("nan")
    real_each = per_action(at50) if at50 and at50.done else {}
    floor_each = per_action(floor) if floor and floor.done else {}
    return {
        "p99": at50.ms(99) if at50 else nan,
        "errors": (at50.errors if at50 else 0) + (floor.errors if floor else 0),
        "capacity": max(
            (w.rate for w in windows if w.passed and not w.floor_size and w.arrivals == "even"),
            default=0.0,
        ),
        "ratio": cost_ratios(windows, "", quiet=True),
        "web": real_each.get("cpu", nan),
        "floor": floor_each.get("cpu", nan),
        "real_each": real_each,
        "floor_each": floor_each,
        "random_p99": random_real.ms(99) if random_real and random_real.done else nan,
        "floor_random_p99": random_floor.ms(99) if random_floor and random_floor.done else nan,
        # Every tier's CPU ms per action at 50 games (bench/capacity.py's inputs; * shared).
        "tiers": {k: v * 1000 / at50.done for k, v in at50.cpu.items()}
        if at50 and at50.done
        else {},
        "push_size": floor.floor_size if floor else 0,
        "via": args.via,
        "seats": args.seats,
    }


def git_commit(tree: Path) -> str:
    """The tree's commit, "+changes" if its tracked files differ from it."""
    git = shutil.which("git") or "git"
    found = subprocess.run(
        [git, "-C", str(tree), "log", "-1", "--format=%h"], capture_output=True, text=True
    )
    dirty = subprocess.run(
        [git, "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    )
    return found.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def without_before(argv: list[str]) -> list[str]:
    """The command line for each run of a comparison: --before and its path left out.

    >>> without_before(["--quick", "--before", "/b", "--via", "ws"])
    ['--quick', '--via', 'ws']
    >>> without_before(["--before=/b", "--seats", "4"])
    ['--seats', '4']
    """
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--before":
            skip = True
        elif not arg.startswith("--before="):
            out.append(arg)
    return out


FLOOR_MODULE = Path("games/web/bench_floor.py")


@contextlib.contextmanager
def same_floor(before: Path, python: str):
    """The --before tree runs this tree's floor (the same work, counted the same way: renders and the
    socket floor) while it is measured, if it can import it there; its own file is put back after."""
    theirs, ours = before / FLOOR_MODULE, HERE / FLOOR_MODULE
    if not theirs.exists():
        print(
            f"(the --before tree has no {FLOOR_MODULE}: its own floor is measured, if it has one)"
        )
        yield
        return
    kept = theirs.read_bytes()
    if kept == ours.read_bytes():
        yield
        return
    theirs.write_bytes(ours.read_bytes())
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ludopat.settings", "LUDOPAT_BENCH_FLOOR": "1"}
    check = subprocess.run(
        [python, "-c", "import django; django.setup(); import games.web.bench_floor"],
        cwd=before,
        env=env,
        capture_output=True,
        text=True,
    )
    if check.returncode != 0:
        theirs.write_bytes(kept)
        print(f"(this tree's floor does not import in {before}: its own floor is measured)")
        print(check.stderr.strip().splitlines()[-1] if check.stderr.strip() else "")
    else:
        print(f"(the --before tree runs this tree's {FLOOR_MODULE} while measured; put back after)")
    try:
        yield
    finally:
        theirs.write_bytes(kept)


def run_child(command: list[str], env: dict, cwd: Path) -> int:
    """One run of a comparison. Its own session, so a Ctrl-C reaches only this process: the run is told
    once, with a SIGTERM, which it takes as Ctrl-C, and stops the site's processes it started."""
    child = subprocess.Popen(command, env=env, cwd=cwd, start_new_session=True)
    try:
        return child.wait()
    except KeyboardInterrupt:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(60)
        except subprocess.TimeoutExpired:
            child.kill()
        raise


def compare(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the --before tree and this one alternately, twice each (A B A B), each in a process of its
    own with its own database, and report the medians of each tree's two runs."""
    before = Path(args.before).resolve()
    if not (before / "manage.py").exists():
        raise SystemExit(f"--before {before}: not a checkout of the site (no manage.py)")
    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    trees = {"before": before, "after": HERE}
    databases = {"before": database_url + "_before", "after": database_url}
    pythons = {}
    for name, tree in trees.items():
        venv = tree / ".venv" / "bin" / "python"
        pythons[name] = str(venv) if venv.exists() else sys.executable
    commits = {name: git_commit(tree) for name, tree in trees.items()}
    began = time.monotonic()
    print(
        f"comparing before = {before} ({commits['before']}) with after = {HERE} "
        f"({commits['after']}), alternately, twice each; load average {loadavg()}",
        flush=True,
    )
    runs: list[tuple[str, dict]] = []
    out = Path(tempfile.mkdtemp(prefix="ludopat-bench-compare-"))
    with same_floor(before, pythons["before"]):
        for n, name in enumerate(["before", "after", "before", "after"]):
            path = out / f"{n}-{name}.json"
            command = [pythons[name], str(Path(__file__).resolve()), *without_before(argv)]
            command += ["--summary", str(path), "--budget", str(args.budget)]
            env = {
                **os.environ,
                "LUDOPAT_BENCH_TREE": str(trees[name]),
                "LUDOPAT_BENCH_COMMIT": commits[name],
                "DATABASE_URL": databases[name],
            }
            print(f"\n=== run {n + 1} of 4: {name} ({commits[name]}) ===", flush=True)
            returncode = run_child(command, env, trees[name])
            if returncode != 0 or not path.exists():
                print(f"run {n + 1} ({name}) failed with exit code {returncode}")
                continue
            runs.append((name, json.loads(path.read_text())))
    print(f"\ncomparison of {commits['before']} (before) and {commits['after']} (after), "
          f"{time.monotonic() - began:.0f} s")  # fmt: skip
    for line in compared(runs, commits):
        print(line)
    print(f"load average {loadavg()} at the end")
    return 0 if len(runs) == 4 else 1


def compared(runs: list[tuple[str, dict]], commits: dict[str, str]) -> list[str]:
    """A comparison's report from its runs' figures (`summary`): the runs' table, each tree's medians
    (of its runs' values, the random phases' ratio taken per run), and the last line from them."""
    lines = [compared_table(runs)]
    for _, r in runs:
        r["random_ratio"] = r["random_p99"] / r["floor_random_p99"]
        for tier, ms in r.get("tiers", {}).items():
            r[f"tier {tier}"] = ms
    tiers = sorted({k for _, r in runs for k in r if k.startswith("tier ")})
    med = {
        name: {
            key: median([r.get(key, float("nan")) for n, r in runs if n == name])
            for key in (*MEDIANS, *tiers)
        }
        for name in commits
    }
    counts = {
        name: {
            f"{side}.{key}": median(
                [r[f"{side}_each"].get(key, float("nan")) for n, r in runs if n == name]
            )
            for side in ("real", "floor")
            for key, _ in COUNTED
        }
        for name in commits
    }
    for name in commits:
        m, c = med[name], counts[name]
        lines.append(
            f"{name} ({commits[name]}), medians: p99 {m['p99']:.0f} ms, capacity "
            f"{m['capacity']:.1f}/s, web CPU {m['web']:.1f} ms, floor {m['floor']:.1f} ms, "
            f"R {m['ratio']:.2f}; per action real/floor: "
            + "; ".join(
                f"{words} {c['real.' + key]:.1f}/{c['floor.' + key]:.1f}" for key, words in COUNTED
            )
            + (
                f"; random-phase p99 real/floor {m['random_ratio']:.2f}x (the median of the runs' "
                f"ratios; limit {FLOOR_BURST_LIMIT:g}x)"
                if m["random_ratio"] == m["random_ratio"]
                else ""
            )
        )
        lines.append(
            f"{name}: CPU ms per action at 50 games (medians; * shared): "
            + ", ".join(f"{key[5:]} {m[key]:.2f}" for key in tiers)
        )
    a, b = med["after"], med["before"]
    lines.append(f"after's web CPU per action / before's: {a['web'] / b['web']:.2f}x; the "
                 f"floor's {a['floor'] / b['floor']:.2f}x")  # fmt: skip
    lines.append(final_line(a["p99"], a["capacity"], a["ratio"], a["web"], b["web"]))
    return lines


MEDIANS = (
    "p99",
    "capacity",
    "ratio",
    "web",
    "floor",
    "random_p99",
    "floor_random_p99",
    "random_ratio",
)


def compared_table(runs: list[tuple[str, dict]]) -> str:
    """One row per run of a comparison."""
    lines = [
        "| run | 50 games p99 ms | capacity/s | web CPU ms real / floor = R | SQL | Redis | "
        "full renders | frames | random p99 real / floor | load before-after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n, (name, r) in enumerate(runs, 1):
        real, floor = r["real_each"], r["floor_each"]

        def pair(key: str, real: dict = real, floor: dict = floor) -> str:
            return f"{real.get(key, float('nan')):.1f} / {floor.get(key, float('nan')):.1f}"

        lines.append(
            f"| {n} {name} | {r['p99']:.0f} | {r['capacity']:.1f} | {r['web']:.1f} / "
            f"{r['floor']:.1f} = {r['ratio']:.2f} | {pair('queries')} | "
            f"{pair('redis_round_trips')} | {pair('full_board_renders')} | {pair('frames')} | "
            f"{r['random_p99']:.0f} / {r['floor_random_p99']:.0f} = "
            f"{r['random_p99'] / r['floor_random_p99']:.2f}x | "
            f"{r.get('load_before', '?')}-{r.get('load_after', '?')} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    random.seed(args.seed)
    # A SIGTERM (a timeout, a CI step cancelled) unwinds like Ctrl-C, so the processes we started stop.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    if args.before:
        return compare(args, argv)
    servers = args.servers

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    for url in (database_url, redis_url):
        local_only(url)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "ludopat.settings",
        "DEBUG": "0",
        "LUDOPAT_TEST_SEEDS": "0",
        "LUDOPAT_BENCH_FLOOR": "1",  # the floor action and the query/round-trip/render counts
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    os.environ.update(env)
    logs = Path(tempfile.mkdtemp(prefix="ludopat-bench-live-"))
    began = time.monotonic()
    load_before = loadavg()
    # A --before run's tree has this tree's floor in it while measured: its commit as the parent read it.
    commit = os.environ.get("LUDOPAT_BENCH_COMMIT") or git_commit(ROOT)
    prepare_database(env)
    import django

    django.setup()
    print(
        f"{os.cpu_count()} CPUs; {args.processes} web process(es) per server; actions by {args.via};"
        f" {args.seats} seats a table; at most {env['LUDOPAT_BENCH_DB_SLOTS']} database connections;"
        f" tree {ROOT} ({commit}); logs in {logs}\n"
        f"* shared with everything else on this machine\n{HEADER}",
        flush=True,
    )
    results: dict[str, list[Window]] = {}
    for n, server in enumerate(servers):
        share = (args.budget - (time.monotonic() - began)) / (len(servers) - n)
        results[server] = run_server(server, args, env, logs, time.monotonic() + share)

    print()
    for server, windows in results.items():
        at50 = next((w for w in windows if w.name == "50 games"), None)
        passing = [w for w in windows if w.passed and not w.floor_size and w.arrivals == "even"]
        capacity = max((w.rate for w in passing), default=0.0)
        p99 = at50.ms(99) if at50 else float("nan")
        errors50 = at50.errors if at50 else 0
        clean = max(
            (w.rate for w in windows if w.errors == 0 and w.done and not w.floor_size), default=0.0
        )
        print(
            f"{server}: p99 {p99:.1f} ms and {errors50} errors at 50 games every "
            f"{args.interval:g} s; capacity {capacity:.1f} actions/s (p99 < {P99_LIMIT_MS:.0f} ms, no "
            f"errors); highest rate without errors {clean:.1f} actions/s"
        )
        cost_ratios(windows, server)
        if args.profile:
            print_stages(windows, server)
        burst = burst_check(windows)
        if burst:
            print(f"{server}: {burst}")
        against = burst_against_floor(windows)
        if against:
            print(f"{server}: {against[1]}")
    print(
        f"total {time.monotonic() - began:.0f} s; load average {load_before} before, {loadavg()} after"
    )
    first = results[servers[0]]
    figures = summary(first, args)
    figures.update(load_before=load_before, load_after=loadavg(), commit=commit)
    if args.summary:
        Path(args.summary).write_text(json.dumps(figures))
    at50 = next((w for w in first if w.name == "50 games"), None)
    at50floor = next((w for w in first if w.name == "50 floor"), None)
    if (at50 and at50.errors) or (at50floor and at50floor.errors):
        print("(overloaded: errors in the 50-game window or the floor; the ratio counts resyncs)")
    burst = burst_check(first)
    if burst:
        print(burst)
    against = burst_against_floor(first)
    if against:
        print(against[1])
    print(final_line(figures["p99"], figures["capacity"], figures["ratio"], figures["web"], None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
