"""What a game's viewers are pushed, always after the change is committed: the events of the game's
group, sent through the site's one sender (ludopat/push.py).

Actions queue these with `transaction.on_commit`; consumers call the async forms. Each event names what
changed and carries no HTML: every consumer sends its page the regions of its viewer's board that
changed (games.live.fragments.delta). A new version's event carries the board's stamp
(games.core.stamp, the render's own) so that the regions are rendered once per version and process
(per variant of the viewpoint where they differ), and every event that changes what a board shows
carries who is present (`here`), read once by the sender, never by each socket. A push that fails is
logged, never raised: the change is saved, and a viewer whose page missed a version sees the gap
(the next push moves from a version it doesn't show) and asks for the whole board.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from channels.layers import BaseChannelLayer

from ludopat import metrics, push
from ludopat.worker_threads import db_call

from . import presence
from .stamp import Board, board_stamp

if TYPE_CHECKING:
    from ..models import Game

log = logging.getLogger(__name__)


def group_name(game_id: str) -> str:
    """The channel group of everyone viewing a game."""
    return f"game.{game_id}"


@dataclass
class Answer:
    """A POST being answered with the board: the socket of its page, which skips the version (a page
    receives each version once), and the presence each push made meanwhile read, keyed by (game,
    version), which the answer's board shows too (one Redis read, not two), with the stamp the push
    carries (the answer's board is the one its renders made, if they made it in this process)."""

    socket: str
    presence: dict[tuple[str, int], frozenset[int]] = field(default_factory=dict)
    tags: dict[tuple[str, int], str] = field(default_factory=dict)


# Set by the view around the action.
_answering: ContextVar[Answer | None] = ContextVar("answering", default=None)


@contextmanager
def answering(socket_name: str) -> Iterator[Answer]:
    """While an action runs for a POST from the page whose socket is `socket_name`: presence is read
    once for the action, its push and its answer (games.core.presence.read_once)."""
    answer = Answer(socket_name[:200] if isinstance(socket_name, str) else "")
    token = _answering.set(answer)
    try:
        with presence.read_once():
            yield answer
    finally:
        _answering.reset(token)


def answering_socket() -> str:
    answer = _answering.get()
    return answer.socket if answer is not None else ""


def board_changed(game_id: str, version: int, facts: dict | None = None, skip: str = "") -> bool:
    """Version `version` of the game exists: every viewer gets its board (`facts` let connections
    share one rendering per viewpoint; `skip` names the socket whose page has it already). False if
    the push failed."""
    return _send(
        game_id, {"type": "game.update", "version": version, "skip": skip, **(facts or {})}
    )


# Called with a new version's game id, version and the seats present, in the process that made it,
# just before its push: the web layer renders that process's sockets' boards there (games.web.
# local_boards), so they send their regions without a thread or a query of their own.
BeforePush = Callable[[str, int, frozenset[int]], None]
_BEFORE_PUSH: list[BeforePush] = []


def before_push(handler: BeforePush) -> None:
    """Call `handler` before every new version's push from now on (once, however often added)."""
    if handler not in _BEFORE_PUSH:
        _BEFORE_PUSH.append(handler)


@dataclass(frozen=True)
class BoardUpdate:
    """A saved version to push on commit, with what connections need to share its rendering."""

    board: Board
    skip: str

    @classmethod
    def of(cls, game: Game) -> BoardUpdate:
        return cls(Board.of(game), answering_socket())

    def send(self) -> None:
        game_id, version = self.board.game_id, self.board.version
        facts: dict[str, Any] = {"status": self.board.status}
        try:  # presence is read once here, not by every connection
            connected = presence.connected_seats(game_id)
            facts["tag"] = board_stamp(self.board, connected)  # the render's own (games.core.stamp)
            facts["here"] = sorted(connected)  # what the connections that render show as present
            answer = _answering.get()
            if answer is not None:
                answer.presence[(game_id, version)] = frozenset(connected)
                answer.tags[(game_id, version)] = facts["tag"]
        except Exception:  # unreadable: each connection renders for itself
            log.exception("could not read the presence of game %s", game_id)
        else:
            _prepare(game_id, version, frozenset(connected))
        if board_changed(game_id, version, facts, self.skip):
            metrics.action_pushed()  # a player's action's latency ends here (ludopat/metrics.py)


def _prepare(game_id: str, version: int, connected: frozenset[int]) -> None:
    for handler in _BEFORE_PUSH:
        try:
            handler(game_id, version, connected)
        except Exception:  # the push goes all the same: each connection renders for itself
            log.exception("could not prepare the push of game %s version %s", game_id, version)


def chat_message(game_id: str, message_id: int) -> None:
    """A chat message was stored: every viewer gets it."""
    if _send(game_id, {"type": "chat.message", "id": message_id}):
        metrics.action_pushed()


def chat_hidden(game_id: str, message_id: int) -> None:
    """A moderator hid a chat message: every viewer's page removes it."""
    _send(game_id, {"type": "chat.hidden", "id": message_id})


def board_refreshed(game_id: str) -> None:
    """Something a board shows changed without a new version of its game (the rematch offered from a
    finished staked game was withdrawn or joined): every viewer gets the regions that show it."""
    _send(game_id, presence_event(here=_here(game_id)))


def presence_event(skip: str = "", here: list[int] | None = None) -> dict[str, Any]:
    """Someone connected or left, or the board changed without a new version: each viewer's page gets
    the regions that changed (the players' cards show who is here). `here`: the seats present, read
    once by the sender for every socket (None: unreadable, each socket reads it)."""
    event: dict[str, Any] = {"type": "game.update", "version": -1, "presence": True, "skip": skip}
    if here is not None:
        event["here"] = here
    return event


async def presence_changed(layer: BaseChannelLayer, game_id: str, skip: str = "") -> None:
    """The async form for consumers, which hold their channel layer; `skip` is the connection that
    came (it knows it is here)."""
    here = await db_call(_here)(game_id)
    await push.send_async(
        group_name(game_id), presence_event(skip, here), about=f"game {game_id}", layer=layer
    )


def presence_lapsed(game_id: str) -> None:
    """The grace of a closed page is over (games.core.presence): the players' cards show who is here."""
    _send(game_id, presence_event(here=_here(game_id)))


def names_changed(game_id: str) -> None:
    """A player of the game was renamed: every viewer gets the board and the chat afresh (the names
    are read anew; no new version)."""
    _send(game_id, {**presence_event(here=_here(game_id)), "names": True})


def _here(game_id: str) -> list[int] | None:
    """Who is present, read once for every socket of the push (None if unreadable)."""
    try:
        return sorted(presence.connected_seats(game_id))
    except Exception:  # unreadable: each connection reads it for itself
        log.exception("could not read the presence of game %s", game_id)
        return None


def _send(game_id: str, event: dict[str, Any]) -> bool:
    """Push `event` to the game's group; False if it could not be (no layer, Redis unreachable)."""
    return push.send(group_name(game_id), event, about=f"game {game_id}")
