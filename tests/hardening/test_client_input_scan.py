"""Every field a client sends reaches a view or consumer through a form or a converter.

A field read by hand (`request.POST.get("key")`, `request.GET["page"]`, `message.get("resync")`) skips
the checks a form makes (a NUL byte, which PostgreSQL refuses in text; a 10,000-character string; "٣"
for a number) and becomes a 500 or a wrong answer. So the views and consumers never touch the raw
input: a query dict (`request.POST`, `request.GET`, `request.body`) and a WebSocket frame (`text_data`,
`bytes_data`) may only be handed, whole, to a form (a class named ...Form, or a view's `form_class`)
or to one of the converters below, which return checked values.

The modules scanned are every module a URL or a WebSocket route leads to, and every views or consumers
module of the three apps and ludopat, so a new view is covered the day it is added.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from django.urls import URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("accounts", "games", "leaderboard", "ludopat")
RAW_INPUT = {"POST", "GET", "body"}  # attributes of a request
FRAME = {"text_data", "bytes_data"}  # a consumer's receive() parameters

# Converters: functions that take a client's raw input and return checked values ("module.function").
CONVERTERS = {
    "ludopat.client_json.action_fields",
    "ludopat.client_json.parse_frame",
    "ludopat.numbers.page_in",
    "ludopat.next_url.next_in",
}


def converter_names() -> set[str]:
    return {dotted.rsplit(".", 1)[1] for dotted in CONVERTERS}


def _route_modules(patterns) -> set[str]:
    found = set()
    for p in patterns:
        if isinstance(p, URLResolver):
            found |= _route_modules(p.url_patterns)
            continue
        callback = p.callback
        view = getattr(callback, "view_class", None) or getattr(callback, "consumer_class", None)
        found.add((view or callback).__module__)
    return found


def scanned_modules() -> list[Path]:
    from ludopat.routing import websocket_urlpatterns

    modules = _route_modules(get_resolver().url_patterns) | _route_modules(websocket_urlpatterns)
    paths = {
        ROOT / (name.replace(".", "/") + ".py")
        for name in modules
        if name.split(".")[0] in PACKAGES
    }
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "views" in path.stem or "consumers" in path.stem:
                paths.add(path)
    return sorted(paths)


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def raw_reads(source: str, allowed: set[str]) -> list[tuple[int, str]]:
    """(line, code) of every use of raw client input that isn't handed whole to a form or converter."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        raw = (isinstance(node, ast.Attribute) and node.attr in RAW_INPUT) or (
            isinstance(node, ast.Name) and node.id in FRAME
        )
        if not raw or not isinstance(node.ctx, ast.Load):
            continue
        user = parents[node]
        if isinstance(user, ast.keyword):
            user = parents[user]
        if isinstance(user, ast.Call) and node is not user.func:
            name = _callee(user.func)
            if name.endswith("Form") or name == "form_class" or name in allowed:
                continue
        shown = node  # the whole read: request.POST.get("key")[:64], not request.POST
        while shown in parents and (
            isinstance(parents[shown], ast.Attribute | ast.Subscript)
            or (isinstance(parents[shown], ast.Call) and parents[shown].func is shown)
        ):
            shown = parents[shown]
        if shown is node:
            shown = user
        found.append((node.lineno, ast.unparse(shown)))
    return sorted(found)


def test_the_scan_finds_hand_reads_and_lets_forms_and_converters_through():
    source = """
form = SignUpForm(request.POST)
form = form_class(data=request.POST)
number = page_in(request.GET)
key = request.POST.get("key", "")[:64]
data = request.POST.dict()
message = parse_object(text_data)
body = json.loads(request.body)
if "apply" in request.GET: pass
"""
    assert raw_reads(source, {"page_in"}) == [
        (5, "request.POST.get('key', '')[:64]"),
        (6, "request.POST.dict()"),
        (7, "parse_object(text_data)"),
        (8, "json.loads(request.body)"),
        (9, "'apply' in request.GET"),
    ]


def test_every_converter_named_exists():
    for dotted in CONVERTERS:
        module, name = dotted.rsplit(".", 1)
        assert inspect.isfunction(getattr(importlib.import_module(module), name, None)), dotted


def test_the_scan_covers_every_view_and_consumer_module():
    names = {str(path.relative_to(ROOT)) for path in scanned_modules()}
    assert {
        "accounts/web/views.py",
        "accounts/web/wallet_views.py",
        "accounts/web/consumers.py",
        "games/web/views.py",
        "games/web/pages.py",
        "games/web/staking_views.py",
        "games/web/consumers.py",
        "leaderboard/web/views.py",
        "ludopat/views.py",
        "ludopat/routing.py",
    } <= names


def test_no_view_or_consumer_reads_client_input_outside_a_form_or_converter():
    allowed = converter_names()
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {code}"
        for path in scanned_modules()
        for line, code in raw_reads(path.read_text(), allowed)
    ]
    assert not offenders, "read outside a form or converter:\n" + "\n".join(offenders)
