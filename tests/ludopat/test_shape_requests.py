"""Requests and sockets stop at the endpoints: outside each app's web/ package, the project's own
endpoints and the plumbing's middleware, no module imports Django's request or response (django.http,
django.shortcuts, django.template.response, django.views) or Channels' consumers (channels.consumer,
channels.generic). What is below takes ids and values, so a service is called the same way by a view,
a socket, a task and a test. Each exception is listed with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "games", "leaderboard", "ludopat")
WEB = (
    "django.http",
    "django.shortcuts",
    "django.template.response",
    "django.views",
    "channels.consumer",
    "channels.generic",
)
ALLOWED = {
    # The project's endpoints (the top layer of pyproject's contract, beside the apps' web/).
    "ludopat/views.py": "the home page",
    "ludopat/ops_views.py": "the metrics and health pages",
    "ludopat/routing.py": "the socket routes, and the consumer that refuses unknown addresses",
    # The plumbing's middleware (settings.MIDDLEWARE), each with the request helpers of its concern.
    "ludopat/client_address.py": "middleware warning of untrusted forwarding; a request's address",
    "ludopat/csp.py": "middleware: the Content-Security-Policy header",
    "ludopat/sync_middleware.py": "middleware: the whole chain in one thread",
    "ludopat/read_replica.py": "middleware: a request's reads go to the replica",
    "ludopat/recent_writes.py": "middleware: a writer's next reads go to the primary",
    "ludopat/readable_errors.py": "middleware: refusals as sentences; the CSRF failure view",
    # The plumbing that reads a client's input for the endpoints: the request is what it parses.
    "ludopat/client_json.py": "an action POST's JSON body",
    "ludopat/next_url.py": "a form's `next`, checked against the request's host",
    "ludopat/numbers.py": "a query string's page number (a QueryDict)",
    "ludopat/throttle.py": "who asks, told apart by the request's session, account and address",
}


def _web_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            continue
        for module in modules:
            if any(module == web or module.startswith(web + ".") for web in WEB):
                found.append(f"{module} (line {node.lineno})")
    return found


def _below_the_endpoints() -> list[Path]:
    return [
        path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "web" not in path.relative_to(ROOT).parts
        and "migrations" not in path.relative_to(ROOT).parts
    ]


def test_below_the_endpoints_no_module_imports_requests_responses_or_consumers():
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in _below_the_endpoints()
        if (found := _web_imports(path)) and str(path.relative_to(ROOT)) not in ALLOWED
    }
    assert offenders == {}


def test_every_exception_is_still_needed():
    """An exception whose module no longer imports them (or is gone) leaves the list."""
    files = {str(path.relative_to(ROOT)): path for path in _below_the_endpoints()}
    stale = [name for name in ALLOWED if name not in files or not _web_imports(files[name])]
    assert stale == []
