"""The standing hostile-input test: every URL of the site (all but /admin/) and every WebSocket action
gets a corpus of bad values, from a spectator, a cookieless client, someone without a CSRF token and
the players themselves. Never a 500 and never a dropped socket; every refusal is a 4xx that says why
in words; and the game's record is exactly what it was. Two senders refused along the same path (the
two players; on the socket, the two without a seat) share a corpus between them: each payload is sent
once, by one of them (`share`).

Nothing here lists the URLs or the actions: they come from the URLconf and from `games.web.commands`, so a
new URL or action is covered the day it is added. It must pass on PostgreSQL too (NUL bytes fail only
there): DATABASE_URL=postgres://.../<db> .venv/bin/pytest tests/hardening/test_hostile_input.py
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from itertools import islice, product
from typing import TypeVar
from urllib.parse import urlencode

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.sessions.backends.db import SessionStore
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import URLResolver, get_resolver

from accounts.moderation.models import Report
from accounts.web.desk_forms import ResolveForm
from accounts.web.forms import SignUpForm
from games.core import actors
from games.models import Action, ChatMessage, Game, Round
from games.tournaments.registration import open_tournament
from games.tournaments.rules import buy_ins
from games.web import commands
from games.web.views import MODE_FORMS
from ludopat import throttle
from ludopat.asgi import application
from ludopat.client_json import as_fields
from tests.games.webplay import computer_game, friends_room, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (eve may join the tournament)

HOST = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]

# Values a form field or query parameter may carry (strings: that is all a form post can send).
VALUES = [
    "", "-1", "-0", "1e3", "0.5", "9" * 30, "²", "٣", "３", "abc", "\x00", "a\x00b",  # noqa: RUF001  look-alike digits are the input under test
    "\x07\x1b[2J\r\n", "\u202e", "x" * 10_000, "[" * 50, "<script>alert(1)</script>",
]  # fmt: skip
# JSON adds types a form can't (numbers, booleans, lists, objects, nesting); its strings reach the
# same forms as a form post's, so a few stand for them all.
JSON_VALUES = [
    None, True, 0.5, -1, 10**40, 1e3, [], [1, 2], {"a": {"b": 1}}, [[[[[[[[[[[[]]]]]]]]]]]],
    "²", "\x00", "x" * 10_000,
]  # fmt: skip
RAW_BODIES = [
    "[" * 100_000, '{"version": ' + "[" * 5_000, "{" * 20 + "}" * 20, "[]", "{bad json", "\x00",
]  # fmt: skip
# The resolver sees these before any view, whatever the method.
BAD_IDS = ["a%00b", "%C2%B2", "a" * 10_000, "%E2%80%AE", "..%2F..", "a b"]
# Well-formed numbers too large for the database's integers (a bigint holds 19 digits at most, SQLite
# raises on them): the id's converter must refuse them before a query is made.
LONG_DIGITS = ["9" * 19, "9" * 23, "1" * 100]

T = TypeVar("T")
_SENTENCE = re.compile(r"[A-Za-z’']{2,}[,:;]?( [A-Za-z’'“”\"(),:;.!?0-9-]+){2,}")  # noqa: RUF001  a sentence may use typographic quotes
_TAG = re.compile(r"<[^>]+>")


def all_field_names() -> list[str]:
    """Every parameter name the site's forms read, plus ones nobody reads."""
    form_classes = [c.form for c in commands.COMMANDS.values()] + list(MODE_FORMS.values())
    form_classes += [SignUpForm, AuthenticationForm, PasswordResetForm, ResolveForm]
    names = {name for cls in form_classes for name in cls.base_fields}
    return sorted(names | {"next", "round", "page", "amount", "q", "unknown_field"})


FIELDS = all_field_names()


def url_patterns(patterns=None, prefix=""):
    """(route, default kwargs) of every URL but the admin's."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            if not str(p.pattern).startswith("admin/"):
                yield from url_patterns(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p.default_args


STRANGERS = {"int": "1", "id": "1", "uuid": "00000000-0000-0000-0000-000000000000"}


def fill(route: str, values: dict[str, str]) -> str:
    """The route with each <converter:name> replaced by values[name], else by a well-formed value
    of that converter that names nothing (so a new route's view is reached, not just its 404)."""

    def value(match: re.Match) -> str:
        converter, name = match.group(1) or "str", match.group(2)
        return values.get(name, STRANGERS.get(converter, "doesnotexist0"))

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def says_why(response) -> str:
    """The sentence a refusal shows a person ('' if none)."""
    body = response.content.decode("utf-8", "replace")
    kind = response.get("Content-Type", "")
    if "json" in kind:
        try:
            body = str(json.loads(body).get("error", ""))
        except (ValueError, AttributeError):
            return ""
    elif "html" in kind:
        main = re.search(r"<main\b.*?</main>", body, re.S)
        body = _TAG.sub(" ", main.group(0) if main else body)
    match = _SENTENCE.search(" ".join(body.split()))
    return match.group(0) if match else ""


def check(response, what: str) -> None:
    status = response.status_code
    assert status < 500, f"{what} answered {status}"
    if 400 <= status < 500:
        assert says_why(response), f"{what} refused with {status} but no sentence"


class Snapshot:
    """Everything a game's record is: the room, its seats, actions, rounds and chat."""

    @staticmethod
    def of(game: Game) -> dict:
        game.refresh_from_db()
        return {
            "game": model_to_dict(game),
            "seats": [model_to_dict(s) for s in game.seats.order_by("index")],
            "actions": list(Action.objects.filter(game=game).values_list("seq", "kind")),
            "rounds": Round.objects.filter(game=game).count(),
            "chat": ChatMessage.objects.filter(game=game).count(),
            "reports": Report.objects.filter(message__game=game).count(),
        }

    @staticmethod
    def changes(before: dict, after: dict) -> list[str]:
        """What differs, field by field (readable when the test fails)."""
        found = []
        for part in before:
            old, new = before[part], after[part]
            if part == "game":
                found += [
                    f"game.{k}: {old[k]!r:.80} -> {new[k]!r:.80}" for k in old if old[k] != new[k]
                ]
            elif part == "seats":
                for i, (a, b) in enumerate(zip(old, new, strict=True)):
                    found += [f"seat {i}.{k}: {a[k]!r} -> {b[k]!r}" for k in a if a[k] != b[k]]
            elif old != new:
                found.append(f"{part}: {old!r:.200} -> {new!r:.200}")
        return found


@pytest.fixture
def world(django_user_model, settings, redis_client):
    """A started two-player room (alice hosts, bob plays), a computer game of someone else, a
    logged-in spectator (eve), and limits high enough that the corpus reaches every check."""
    settings.LUDOPAT_BOT_DELAY = 600  # no computer acts while the corpus runs
    settings.LUDOPAT_ACTION_RATE = (10**6, 10)
    settings.LUDOPAT_RATES = dict.fromkeys(throttle.DEFAULT_RATES, (10**6, 10))
    settings.LUDOPAT_FRAME_RATE = (10**6, 10**6)
    settings.AXES_ENABLED = False  # log-in floods are axes' to refuse (tests/accounts covers it)
    users = {n: django_user_model.objects.create_user(n) for n in ("alice", "bob", "eve")}
    room = friends_room(member(users["alice"]), [member(users["bob"])])
    other = computer_game(member(users["bob"]))
    tournament = open_tournament(
        4, buy_ins()[0]
    )  # a real bracket page and its buttons, for eve's POSTs
    return {"users": users, "room": room, "other": other, "tournament": tournament}


def client_for(user=None, csrf=False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
        session = client.session
        session[actors.PLAYER_KEY] = f"key-{user.pk}"  # the key tests.games.webplay.member uses
        session.save()
    return client


def signed_in(client: Client, user) -> Client:
    """The client, signed in as `user` again if the corpus signed them out (a log-out route flushes
    the session): a look at the session costs one query, a log-in several writes and its receivers,
    and a log-in before every URL was a fifth of these tests' time."""
    if client.session.get(SESSION_KEY) != str(user.pk):
        client.force_login(user)
    return client


def send_corpus(client, url: str, cookieless=False, query=False) -> None:
    """GET with every value in every query parameter; POST it as a form, as JSON, and raw bodies
    (with `query`, each form POST carries the values in its query parameters too). (A cookieless
    client's GETs are a logged-out visitor's: once each is enough.)"""

    def go(method, **kwargs):
        if cookieless:
            client.cookies.clear()
        response = getattr(client, method)(kwargs.pop("path", url), **kwargs)
        shown = repr(kwargs.get("data"))[:120]
        check(response, f"{method.upper()} {url[:80]} {shown}")
        return response

    if go("get", data={}).status_code != 405 and not cookieless:
        for value in VALUES:
            go("get", data=dict.fromkeys(FIELDS, value))
    if go("post", data={}).status_code != 405:
        for value in VALUES:
            go("post", data=dict.fromkeys(FIELDS, value), HTTP_HX_REQUEST="true")
            if query:
                go("post", path=f"{url}?{urlencode(dict.fromkeys(FIELDS, value))}", data={})
        for value in JSON_VALUES:
            body = json.dumps(dict.fromkeys(FIELDS, value))
            go("post", data=body, content_type="application/json")
        for body in RAW_BODIES:
            go("post", data=body, content_type="application/json", HTTP_HX_REQUEST="true")


def refused_by_form(command: commands.Command, fields: dict[str, str]) -> bool:
    """Whether these parameters fail the command's own form (so a player sending them can't act)."""
    return not command.form(fields).is_valid()


def player_corpus(name: str):
    """Payloads a player may send to their own game's `name` action that must all be refused."""
    command = commands.COMMANDS[name]
    names = list(command.form.base_fields) or ["unknown_field"]
    for value in JSON_VALUES + VALUES:
        fields = as_fields(dict.fromkeys(names, value))
        if refused_by_form(command, fields):
            yield fields


def share(payloads: Iterable[T], turn: int, of: int = 2) -> Iterator[T]:
    """Every `of`-th payload from `turn` on: two senders whose refusal takes the same path (two seated
    players: `commands.run` checks the seat, then the form refuses; two sockets with no seat: refused
    before any field is read) send the corpus between them, every payload once."""
    return islice(payloads, turn, None, of)


@pytest.mark.slow  # every URL (or frame) with every hostile value: make test, not test-fast
@pytest.mark.django_db
def test_no_url_answers_a_500_or_changes_the_game(world):
    room, other, users = world["room"], world["other"], world["users"]
    ids = {"game_id": room.pk, "username": "alice", "mode": "computer", "ruleset": "classic"}
    ids["tournament_id"] = str(world["tournament"].pk)
    routes = list(url_patterns())
    assert any("<gameid:game_id>/move" in r for r, _ in routes)  # the URLconf really was read
    before = Snapshot.of(room), Snapshot.of(other)

    eve = client_for(users["eve"])
    cookieless = Client()
    for route, _ in routes:
        url = fill(route, ids)
        signed_in(eve, users["eve"])  # the corpus may have logged her out
        # The pages that read ids and query parameters of their own get them in a POST's query too.
        send_corpus(eve, url, query=route.startswith(("tournaments/", "desk/", "leaderboard/")))
        send_corpus(cookieless, url, cookieless=True)
        # Someone else's game, and ids that are not ids at all: refused, never a 500.
        check(eve.get(fill(route, {**ids, "game_id": other.pk})), f"eve GET {route} of other")
        for bad_url in bad_id_urls(route) if "<" in route else []:
            check(cookieless.get(bad_url), f"GET {bad_url[:80]}")
            signed_in(eve, users["eve"])
            check(eve.post(bad_url, {"version": "0"}), f"eve POST {bad_url[:80]}")

    # The players: every action with parameters its form refuses, a stale version, another's seat.
    for turn, user in enumerate((users["alice"], users["bob"])):
        player = client_for(user)
        for route, defaults in routes:
            name = defaults.get("name")
            if name not in commands.COMMANDS:
                continue
            url = fill(route, ids)
            for fields in share(player_corpus(name), turn):
                response = player.post(url, fields, HTTP_HX_REQUEST="true")
                check(response, f"{user} POST {url} {str(fields)[:80]}")
                assert 400 <= response.status_code < 500, (user, url, fields)
        room.refresh_from_db()
        stale = {"version": room.version - 1}
        for action in ("roll", "start"):
            check(player.post(f"/games/{room.pk}/{action}", stale, HTTP_HX_REQUEST="true"), action)
        mine = "0" if user == users["alice"] else "1"
        for seat in {"0", "1", "3"} - {mine}:
            data = {"version": room.version, "seat": seat, "colour": "red", "index": "0"}
            for action in ("roll", "move", "seed"):
                response = player.post(f"/games/{room.pk}/{action}", data, HTTP_HX_REQUEST="true")
                check(response, f"{user} {action} seat {seat}")
    # Someone else's game (bob's game against the computer), every action, from alice.
    alice = client_for(users["alice"])
    for route, defaults in routes:
        if defaults.get("name") in commands.COMMANDS:
            url = fill(route, {"game_id": other.pk})
            response = alice.post(url, {"version": "0", "seat": "0"}, HTTP_HX_REQUEST="true")
            check(response, f"alice {url} in bob's game")
            assert 400 <= response.status_code < 500

    # No CSRF token: refused with Django's explanation, nothing done.
    forged = client_for(users["alice"], csrf=True)
    for route, defaults in routes:
        if defaults.get("name") in commands.COMMANDS:
            check(forged.post(fill(route, ids), {"version": room.version}), f"no CSRF {route}")

    assert Snapshot.changes(before[0], Snapshot.of(room)) == []
    assert Snapshot.changes(before[1], Snapshot.of(other)) == []


def bad_id_urls(route: str) -> list[str]:
    """The route with every id replaced by each bad id and each long digit string."""
    return [re.sub(r"<(?:\w+:)?\w+>", bad, "/" + route) for bad in BAD_IDS + LONG_DIGITS]


@pytest.mark.django_db
def test_an_id_too_large_for_the_database_is_refused_for_signed_in_players_and_staff(
    django_user_model, settings, redis_client
):
    """Every URL with an id, from a signed-in player and from a moderator (whose requests reach the
    desk's views), GET and POST with the hostile values in the query and the body: never a 500."""
    from accounts.moderation.roles import MODERATOR
    from tests.accounts.moderation.conftest import staff

    settings.AXES_ENABLED = False
    player = django_user_model.objects.create_user("ann")
    moderator = staff(django_user_model, "mod", MODERATOR)
    routes = [route for route, _ in url_patterns() if "<" in route]
    assert any(r.startswith("tournaments/") for r in routes) and any(
        r.startswith("desk/") for r in routes
    )
    query = "?" + "&".join(f"{name}={'9' * 23}" for name in FIELDS)
    for user in (player, moderator):
        client = client_for(user)
        for route in routes:
            for url in bad_id_urls(route):
                signed_in(client, user)
                check(client.get(url + query), f"{user} GET {url[:80]}")
                check(client.post(url + query, {"rating": "9" * 23}), f"{user} POST {url[:80]}")


def test_every_id_in_every_url_is_bounded_by_its_converter():
    """Django's own `int`, `str` and `path` converters take any length: an id in a URL (or a socket's
    address) is read by one of ours, whose pattern fits the column it names."""
    from ludopat.routing import websocket_urlpatterns

    routes = [route for route, _ in url_patterns()]
    routes += [str(p.pattern) for p in websocket_urlpatterns]
    unbounded = [
        route
        for route in routes
        for converter in re.findall(r"<(?:(\w+):)?\w+>", route)
        if (converter or "str") in ("int", "str", "path", "slug", "uuid")
    ]
    assert unbounded == []


# ---------------------------------------------------------------------------------------------------
# The WebSocket


def session_cookie(user) -> list[tuple[bytes, bytes]]:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session[actors.PLAYER_KEY] = f"key-{user.pk}"
    session.save()
    return [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode())]


async def open_socket(path: str, user=None) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(session_cookie)(user) if user is not None else []
    ws = WebsocketCommunicator(application, path, headers=HOST + cookie)
    connected, code = await ws.connect()
    assert connected, (path, code)
    return ws


async def drain(ws: WebsocketCommunicator, what: str) -> None:
    """Read what the server has sent so far; a close (or the consumer raising) fails the test."""
    while not await ws.receive_nothing(timeout=0.002, interval=0.001):
        output = await ws.receive_output()
        assert output["type"] == "websocket.send", f"{what}: the socket was dropped ({output})"


async def still_alive(ws: WebsocketCommunicator, what: str) -> None:
    await ws.send_to(text_data='{"resync": -1}')
    while True:  # everything still queued, then the board: a close on the way fails
        output = await ws.receive_output(timeout=10)
        assert output["type"] == "websocket.send", f"{what}: the socket was dropped ({output})"
        if 'id="game-live"' in output.get("text", ""):
            return


def raw_frames() -> list[str]:
    frames = list(RAW_BODIES)
    frames += ['{"action": 5}', '{"action": "nope"}', '{"action": ["roll"]}', '{"action": null}']
    frames += [json.dumps({"resync": v}) for v in JSON_VALUES + VALUES]
    frames += [json.dumps({"heartbeat": v}) for v in JSON_VALUES]
    return frames


@pytest.mark.slow  # every URL (or frame) with every hostile value: make test, not test-fast
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_frame_drops_the_socket_or_changes_the_game(world):
    channel_layers.backends.clear()  # this test's own event loop
    room, users = world["room"], world["users"]
    path = f"/ws/games/{room.pk}/"
    for bad in ("a\x00b", "%00", "²", "a" * 10_000, "a/b", ""):
        refused = WebsocketCommunicator(application, f"/ws/games/{bad}/", headers=HOST)
        connected, _ = await refused.connect()
        assert not connected  # refused with a close code, not an exception in the router
    sockets = {
        "eve": await open_socket(path, users["eve"]),
        "cookieless": await open_socket(path),
        "alice": await open_socket(path, users["alice"]),
        "bob": await open_socket(path, users["bob"]),
    }
    for who, ws in sockets.items():
        await drain(ws, who)
    before = await sync_to_async(Snapshot.of)(room)

    for turn, who in enumerate(("eve", "cookieless")):
        ws = sockets[who]
        for frame in raw_frames():
            await ws.send_to(text_data=frame)
            await drain(ws, f"{who} sent {frame[:60]!r}")
        await ws.send_to(bytes_data=b"\x00\xff" * 100)
        await drain(ws, f"{who} sent bytes")
        for name, value in share(product(commands.COMMANDS, JSON_VALUES + VALUES), turn):
            frame = json.dumps({"action": name, **dict.fromkeys(FIELDS, value)})
            await ws.send_to(text_data=frame)
            await drain(ws, f"{who} sent {name}={value!r:.40}")
        await still_alive(ws, who)
    for turn, who in enumerate(("alice", "bob")):
        ws = sockets[who]
        for frame in raw_frames():
            await ws.send_to(text_data=frame)
            await drain(ws, f"{who} sent {frame[:60]!r}")
        for name in commands.COMMANDS:
            for fields in share(player_corpus(name), turn):
                await ws.send_to(text_data=json.dumps({"action": name, **fields}))
                await drain(ws, f"{who} sent {name} {str(fields)[:60]}")
        await still_alive(ws, who)

    assert Snapshot.changes(before, await sync_to_async(Snapshot.of)(room)) == []
    for ws in sockets.values():
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_home_page_socket_survives_any_frame(world, redis_client):
    channel_layers.backends.clear()
    home = await open_socket("/ws/online/")
    await drain(home, "home")
    for frame in raw_frames():
        await home.send_to(text_data=frame)
    await home.send_to(bytes_data=b"\x00\xff" * 100)
    await drain(home, "home after the corpus")
    newcomer = await open_socket("/ws/online/", world["users"]["eve"])
    # The first page is still in the group: it hears that a second person arrived (nothing within
    # 5 s fails the test).
    heard = ""
    while "2 players online" not in heard:
        output = await home.receive_output(timeout=5)
        assert output["type"] == "websocket.send", f"the home page's socket was dropped ({output})"
        heard = output.get("text", "")
    await newcomer.disconnect()
    await home.disconnect()
