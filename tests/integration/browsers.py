"""A page's WebSocket as a browser holds it, against a real server process: the session cookie and the
Origin header the page sends, every frame kept, and waits for the frame a player would notice. And a
browser without JavaScript (Player): plain HTTP, as a page's POSTs."""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from games import actions, engine
from games.core import actors
from games.models import Game
from tests.games.webplay import fresh, turn_seat

VERSION = re.compile(r'data-version="(\d+)"')
MESSAGE = re.compile(r'id="game-message"[^>]*>(.*?)</p>', re.S)


def version_of(frame: str) -> int:
    return int(VERSION.search(frame).group(1))


def is_board(frame: str) -> bool:
    return 'id="game-live"' in frame[:200]


class Page:
    """One open game page: its socket to one server process and what arrived on it."""

    def __init__(self, name: str, ws: ClientConnection):
        self.name, self.ws = name, ws
        self.frames: list[str] = []
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, name: str, port: int, game_id: str, session_key: str) -> Page:
        ws = await connect(
            f"ws://127.0.0.1:{port}/ws/games/{game_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}"},
            open_timeout=15,
        )
        page = cls(name, ws)
        # As the page on opening its socket: "I show no board yet" (a loaded page names its version).
        await ws.send(json.dumps({"resync": -1}))
        await page.board_at(0)
        return page

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                self.frames.append(frame)
                self._arrived.set()
        except ConnectionClosed:
            pass

    async def wait_for(
        self, found: Callable[[str], bool], timeout: float = 10.0, since: int = 0
    ) -> str:
        """The first frame from index `since` on that `found` accepts; AssertionError on timeout."""
        deadline = asyncio.get_running_loop().time() + timeout
        seen = since
        while True:
            for frame in self.frames[seen:]:
                if found(frame):
                    return frame
            seen = max(seen, len(self.frames))
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                last = self.frames[-1][:300] if self.frames else "nothing"
                raise AssertionError(f"{self.name}'s page: no such frame in {timeout} s ({last})")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def board_at(self, version: int, timeout: float = 10.0) -> str:
        """The first board pushed at `version` or later."""
        return await self.wait_for(lambda f: is_board(f) and version_of(f) >= version, timeout)

    def latest_board(self) -> str:
        return max((f for f in self.frames if is_board(f)), key=version_of)

    async def send(self, action: str, **values) -> None:
        """What htmx's ws-send sends: the form's values as a JSON object."""
        await self.ws.send(json.dumps({"action": action, **values}))

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)


def message_line(board: str) -> str:
    """The board's message line as text (what just happened)."""
    found = MESSAGE.search(board)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else ""


class Player:
    """A browser without JavaScript: cookies, the CSRF token, htmx's header on actions;
    `session_key`: logged in with that session (tests/integration/test_scale_out.py's session_for)."""

    def __init__(self, base_url: str, session_key: str = "") -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        if session_key:
            self.jar.set_cookie(_cookie(settings.SESSION_COOKIE_NAME, session_key))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def open(self, path: str, data: dict | None = None, htmx: bool = False):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base_url + path, data=body)  # noqa: S310  our own http:// server
        if data is not None:
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
        if htmx:
            req.add_header("HX-Request", "true")
        try:
            with self.opener.open(req, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def new_computer_game(self) -> Game:
        status, _, html = self.open("/games/new/computer/")
        assert status == 200, html[:500]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        fields = {"csrfmiddlewaretoken": token, "ruleset": "classic", "players": "2",
                  "tokens": "4", "level_2": "greedy"}  # fmt: skip
        status, url, html = self.open("/games/new/computer/", fields)
        assert status == 200 and "/games/" in url, html[:500]
        return Game.objects.get(pk=url.rstrip("/").split("/")[-1])

    def act(self, game: Game) -> tuple[int, str]:
        """The player's next action by POST: a roll, or the first legal move."""
        game = fresh(game)
        state = actions.engine_state(game)
        moves = engine.legal_moves(state)
        if state.awaiting == engine.ROLL or not moves:
            status, _, html = self.open(
                f"/games/{game.pk}/roll", {"version": game.version}, htmx=True
            )
        else:
            m = moves[0]
            data = {"version": game.version, "colour": m.colour, "index": m.index,
                    "pair": "1" if m.pair else ""}  # fmt: skip
            if len(set(state.dice)) > 1 or m.die == "total":
                data["die"] = m.die
            status, _, html = self.open(f"/games/{game.pk}/move", data, htmx=True)
        return status, html


def _cookie(name: str, value: str) -> http.cookiejar.Cookie:
    """A cookie for 127.0.0.1, as the site set it."""
    return http.cookiejar.Cookie(
        version=0, name=name, value=value, port=None, port_specified=False, domain="127.0.0.1",
        domain_specified=False, domain_initial_dot=False, path="/", path_specified=True,
        secure=False, expires=None, discard=True, comment=None, comment_url=None, rest={},
    )  # fmt: skip


def session_for(user) -> str:
    """A logged-in browser's session, written directly (no password hashing)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session[actors.PLAYER_KEY] = f"key-{user.pk}"  # as member() names the browser's key
    session.save()
    return session.session_key


def next_action(game_id: str) -> tuple[int, str, dict]:
    """The seat to act and what it plays: a roll, or its first legal move (the page's values)."""
    game = Game.objects.get(pk=game_id)
    seat = turn_seat(game)
    state = actions.engine_state(game)
    if engine.can_roll(state) and (state.awaiting == engine.ROLL or not engine.legal_moves(state)):
        return seat.index, "roll", {"version": game.version}
    move = engine.legal_moves(state)[0]
    values = {"version": game.version, "colour": move.colour, "index": move.index}
    if len(set(state.dice)) > 1 or move.die == "total":
        values["die"] = move.die
    if move.pair:
        values["pair"] = True
    return seat.index, "move", values
