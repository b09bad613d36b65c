"""A page's WebSocket as a browser holds it, against a real server process: the session cookie and the
Origin header the page sends, every frame kept, and waits for the frame a player would notice."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable

from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

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
