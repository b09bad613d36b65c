"""Browser tests: the real stack (daphne + Celery worker + beat, as `make run` starts them) driven by
Debian's Chromium through Playwright's sync API.

How the pieces fit:

- The stack is started once per session, after pytest-django has created the test database, and is
  pointed at it with DATABASE_URL (SQLite: the file var/test-db.sqlite3; PostgreSQL: test_<name>). The
  session's REDIS_URL (tests/../conftest.py starts an embedded Redis when none is set) is inherited.
- Each browser test uses `transactional_db`: what the test writes is committed, so the subprocesses see
  it, and the tables are emptied afterwards (tests/fast_flush.py). The subprocesses hold no connection
  open between requests and tasks (CONN_MAX_AGE is 0; Celery closes its connection after each task), so
  emptying only ever waits for a request or task in flight, never deadlocks. For SQLite the test database is switched to WAL so
  readers never block the writer.
- Browser tests run last in the session (see pytest_collection_modifyitems): while the stack runs no
  other test holds a long transaction open on the shared database, and the Celery worker never meets a
  Redis flushed under it by another test.
- Subprocess logs are written to a folder of the session's own and copied to tests/artifacts/logs/ at
  the end; a failing browser test shows what each process logged during the test, and what the page
  printed to its console. Each process runs in its own process group, so stopping it reaches a
  worker's pool too.
- The subprocesses run tests/browser/stack_settings.py: the site's settings with computers that don't
  pause before acting and a flood limit a scripted player stays under. PYTHONPATH points at this
  checkout, so a copy of the tree tests its own code.
- Playwright's sync API runs an event loop under the test, so Django's async-safety check would refuse
  the ORM calls the tests (and the flush) make: DJANGO_ALLOW_ASYNC_UNSAFE is set while the browser is up.
  Code whose on-commit hooks use async_to_sync (games.actions) runs through the `server` fixture, in a
  thread of its own.

Without /usr/bin/chromium the browser tests are skipped, unless LUDOPAT_REQUIRE_BROWSER=1 (CI), which
makes them fail instead.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ludopat.embedded_redis import free_port
from tests.stack import ARTIFACTS, BIN, LOGS, ROOT, quiesce_games, service_env

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
START_TIMEOUT = 30.0


# ---------------------------------------------------------------------------------------------------
# Collection: mark, order


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list
) -> None:
    """Every test under tests/browser is a browser test, and they all run after every other test."""
    here = Path(__file__).parent
    browser, other = [], []
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            browser.append(item)
        else:
            other.append(item)
    items[:] = other + browser


def _require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"browser tests need Debian's chromium at {CHROMIUM}"
    if os.environ.get("LUDOPAT_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (LUDOPAT_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(message)


# ---------------------------------------------------------------------------------------------------
# The stack


@dataclass
class Process:
    name: str
    proc: subprocess.Popen
    log: Path
    mark: int = 0  # log size when the current test started

    def since_mark(self, limit: int = 20000) -> str:
        with self.log.open("rb") as handle:
            handle.seek(self.mark)
            text = handle.read().decode("utf-8", "replace")
        return text if len(text) <= limit else "...\n" + text[-limit:]

    def set_mark(self) -> None:
        self.mark = self.log.stat().st_size


@dataclass
class Stack:
    base_url: str
    processes: list[Process] = field(default_factory=list)

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    def check_alive(self) -> None:
        for p in self.processes:
            if p.proc.poll() is not None:
                raise RuntimeError(
                    f"{p.name} exited with code {p.proc.returncode}:\n{p.since_mark()}"
                )


def _wait_for_port(port: int, proc: Process) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.proc.poll() is not None:
            raise RuntimeError(
                f"daphne exited with code {proc.proc.returncode}:\n{proc.since_mark()}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"daphne did not listen on port {port}:\n{proc.since_mark()}")


def _wait_for_log(proc: Process, needle: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.proc.poll() is not None:
            raise RuntimeError(
                f"{proc.name} exited with code {proc.proc.returncode}:\n{proc.since_mark()}"
            )
        if needle in proc.since_mark():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{proc.name} did not log {needle!r} in time:\n{proc.since_mark()}")


def _stop(processes: list[Process]) -> None:
    for p in reversed(processes):
        if p.proc.poll() is None:
            p.proc.terminate()
    deadline = time.monotonic() + 10
    for p in processes:
        try:
            p.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):  # the whole group: a worker's pool too
                os.killpg(p.proc.pid, signal.SIGKILL)
            p.proc.wait(5)


@pytest.fixture(scope="session")
def live_stack(django_db_setup, django_db_blocker) -> Iterator[Stack]:
    """daphne on a free 127.0.0.1 port, a Celery worker and beat, all on the test database."""
    _require_chromium()
    env = service_env("tests.browser.stack_settings", django_db_blocker)
    port = free_port()
    # Logs go to this session's own folder (two sessions may run in one checkout) and are copied to
    # tests/artifacts/logs/ at the end.
    workdir = Path(tempfile.mkdtemp(prefix="ludopat-stack-"))
    commands = {
        "daphne": [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                   "ludopat.asgi:application"],
        "worker": [str(BIN / "celery"), "-A", "ludopat", "worker", "--loglevel", "INFO",
                   "--concurrency", "2", "--without-gossip", "--without-mingle"],
        "beat": [str(BIN / "celery"), "-A", "ludopat", "beat", "--loglevel", "INFO",
                 "--schedule", str(workdir / "celerybeat-schedule")],
    }  # fmt: skip
    stack = Stack(base_url=f"http://127.0.0.1:{port}")
    try:
        for name, cmd in commands.items():
            log = workdir / f"{name}.log"
            with log.open("wb") as handle:
                proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=handle,
                                        stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
            stack.processes.append(Process(name, proc, log))
        daphne, worker, _beat = stack.processes
        _wait_for_port(port, daphne)
        _wait_for_log(worker, "ready.")
        yield stack
    finally:
        _stop(stack.processes)
        for p in stack.processes:
            with contextlib.suppress(OSError):
                shutil.copyfile(p.log, LOGS / p.log.name)
        shutil.rmtree(workdir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------
# The browser


def _launch(playwright):
    """Chromium, with one retry: on a loaded machine a first launch can hang until its timeout."""
    for attempt in (1, 2):
        try:
            return playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000
            )
        except Exception:
            if attempt == 2:
                raise


@pytest.fixture(scope="session")
def browser(live_stack):
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = _launch(playwright)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def live(live_stack, browser, transactional_db, request) -> Iterator[Stack]:
    """The running stack for one test, on a database this test may write to (emptied afterwards)."""
    live_stack.check_alive()
    for p in live_stack.processes:
        p.set_mark()
    request.node._live_stack = live_stack
    yield live_stack
    off_loop(quiesce_games)


def off_loop(fn: Callable, *args, **kwargs):
    """Run server-side code (games.actions, the ORM) in a plain thread, away from the event loop that
    Playwright's sync API keeps in the test's thread: its on-commit notifications use async_to_sync,
    which refuses to run beside a loop. The thread's database connection is closed afterwards."""
    from django.db import connections

    def call():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


@pytest.fixture
def server() -> Callable:
    """server(fn, *args): run fn in a thread of its own (see off_loop) and return its result."""
    return off_loop


# ---------------------------------------------------------------------------------------------------
# Accessibility: every page of the site a test visits is checked with axe-core


WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# The dark theme changes colours and nothing else (static/css/dark.css; tests/ludopat/test_dark_theme.py
# holds it to that), so in the dark scheme only the rules that read colours can find anything the light
# scheme's full run did not.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
SCHEMES = {
    "light": {"type": "tag", "values": WCAG_21_AA},
    "dark": {"type": "rule", "values": COLOUR_RULES},
}
# Pages already found clean: (scheme, viewport width, a hash of the DOM). The same DOM under the same
# stylesheets gives axe the same answer, so a state checked once (the state a test waited for, then
# the same page at teardown; the lobby every test opens) is not checked again.
_CLEAN: set[tuple[str, int, str]] = set()


@functools.cache
def _axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def accessibility_violations(page, run_only: dict | None = None) -> list[str]:
    """axe-core's WCAG 2.1 AA violations on the page as it is now, one readable line each (axe is
    injected once per document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    options = {"runOnly": run_only or SCHEMES["light"], "resultTypes": ["violations"]}
    found = page.evaluate("options => axe.run(document, options)", options)["violations"]
    return [
        f"{v['id']} ({v.get('impact')}): {v['help']} -- "
        + "; ".join(" ".join(map(str, node["target"])) for node in v["nodes"][:5])
        for v in found
    ]


# The DOM a cache key is made of, with Django's CSRF tokens blanked: the token is masked afresh for every
# render (a hidden input's value, the <body>'s hx-headers), so without this two loads of one page never
# matched, and every log-in (the log-in page, the same for everyone) ran axe twice again. axe reads
# neither value: a hidden input is no content, and an hx-* attribute no ARIA.
DOM_FOR_KEY = r"""() => document.documentElement.outerHTML.replace(
  /(X-CSRFToken(?:&quot;|")\s*:\s*(?:&quot;|")|name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+/g, "$1")"""

SETTLED = """() => new Promise(done => requestAnimationFrame(() =>
  Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition).map(a => a.finished))
    .then(() => done(), () => done())))"""


def check_accessible(page, state: str = "") -> None:
    """Fail on any WCAG 2.1 AA violation on the page as it is now, in the light and the dark colour
    scheme (a page of our own site; others are skipped).

    Tests call it after each state they wait for (mid-game, paused, finished, waiting, refused...),
    naming the state for the failure message: a live page changes without a navigation, so the
    checks after goto/reload never see those states."""
    base = getattr(page, "_site_base_url", None)
    if base is None or not page.url.startswith(base):
        return
    problems = []
    width = (page.viewport_size or {}).get("width", 0)
    try:
        for scheme, run_only in SCHEMES.items():
            page.emulate_media(color_scheme=scheme)
            # The new scheme's colours are in once the transitions it started have run (a colour
            # caught mid-transition fails contrast; Django's admin fades its links).
            page.evaluate(SETTLED)
            dom = page.evaluate(DOM_FOR_KEY)
            key = (scheme, width, hashlib.blake2b(dom.encode(), digest_size=16).hexdigest())
            if key in _CLEAN:
                continue
            found = accessibility_violations(page, run_only)
            problems += [f"[{scheme}] {p}" for p in found]
            if not found:
                _CLEAN.add(key)
    finally:
        page.emulate_media(color_scheme="light")
    where = f"{page.url} ({state})" if state else page.url
    assert not problems, f"WCAG 2.1 AA violations on {where}:\n" + "\n".join(problems)


def _check_after_navigation(page, base_url: str) -> None:
    """Each page.goto/reload is checked once loaded; where the test ends up is checked at teardown
    (that covers pages reached by clicks and the board as play left it)."""
    page._site_base_url = base_url
    for name in ("goto", "reload"):
        original = getattr(page, name)

        def navigate(*args, _original=original, **kwargs):
            response = _original(*args, **kwargs)
            check_accessible(page)
            return response

        setattr(page, name, navigate)


@pytest.fixture
def new_page(live, browser, request) -> Iterator[Callable]:
    """new_page(viewport=DESKTOP) -> a Page in its own browser context (its own cookies: its own
    person); console errors and uncaught page errors are kept for the failure report. Every page is
    checked for WCAG 2.1 AA violations after each goto/reload and where the test leaves it."""
    contexts = []
    pages = []
    console: list[str] = []
    request.node._browser_console = console

    def make(viewport: dict | None = None, **context_options):
        # Reduced motion unless a test asks for motion (test_pass_and_play_pairs.py does, for the
        # animated moves): the site then drops its transitions and endless animations (the movable
        # token's halo, the target's glow), so no check or screenshot sees a colour or a token
        # half-way.
        context_options.setdefault("reduced_motion", "reduce")
        context = browser.new_context(
            viewport=viewport or DESKTOP, base_url=live.base_url, **context_options
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        label = f"page {len(contexts)}"
        page.on(
            "console",
            lambda msg: (
                console.append(f"[{label} console.{msg.type}] {msg.text}")
                if msg.type in ("error", "warning")
                else None
            ),
        )
        page.on("pageerror", lambda exc: console.append(f"[{label} pageerror] {exc}"))
        _check_after_navigation(page, live.base_url)
        pages.append(page)
        return page

    yield make
    try:
        if not getattr(request.node, "_call_failed", False):
            for page in pages:
                if not page.is_closed():
                    check_accessible(page)
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def page(new_page):
    """One desktop-sized page."""
    return new_page()


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot as tests/artifacts/<name>.png (git-ignored) and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # a sticky header would otherwise sit mid-picture
    page.screenshot(path=str(path), full_page=full_page)
    return path


def screenshot_sizes(page, name: str) -> list[Path]:
    """The page at desktop (1280x800) and phone (390x844) sizes: <name>-desktop.png, <name>-phone.png."""
    paths = []
    original = page.viewport_size
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)  # let layout settle after the resize
        paths.append(screenshot(page, f"{name}-{label}"))
    if original:
        page.set_viewport_size(original)
    return paths


@pytest.fixture
def shoot() -> Callable:
    """shoot(page, name): one screenshot into tests/artifacts/."""
    return screenshot


@pytest.fixture
def shoot_sizes() -> Callable:
    """shoot_sizes(page, name): desktop and phone screenshots into tests/artifacts/."""
    return screenshot_sizes


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item._call_failed = True
        console = getattr(item, "_browser_console", None)
        if console:
            report.sections.append(("browser console", "\n".join(console)))
        stack = getattr(item, "_live_stack", None)
        if stack is not None:
            for p in stack.processes:
                text = p.since_mark()
                if text.strip():
                    report.sections.append((f"{p.name} log (this test)", text))
    return report
