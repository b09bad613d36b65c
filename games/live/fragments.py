"""The HTML the game page is sent: the live board of a viewpoint, as a whole (`#game-live`, the page's
and a POST's answer, a resync) or as a push of its regions that changed; the chat's pieces (the whole
log, a new message, a hidden one), and the small pieces a socket sends besides (its name, a toast).

The board is cut into regions (each a `div#live-<region>`: templates/games/live/_<region>.html, or
built in Python where one is rendered for many viewers at every version: the opening tag of
`#game-live` in head_tag.py, the players' cards in player_card.py, the dice panel in dice_panel.py,
the board in board_region.py, the message line and the log in small_regions.py, which also renders
fair dice and the buttons once per set of what they read).
What every viewer sees alike (the board for all but the one to play, the message line, the log, fair
dice) is rendered once per version and process whatever the number of viewpoints; what differs is
rendered per variant, which names only what the region reads of its viewer (`_variants`): the
opening tag and the dice panel per role (the one to play, another player, a watcher), the clock once
for all watchers, the buttons per player's vote and question, each player's card twice (as everyone
sees it, and as its own player does). The context they are rendered from is worked out alike for
every viewer once per version (games.live.presenter.shared_context, kept in
games.core.caches.CONTEXTS), then each viewer's own bits. `games/_live.html` only
puts the regions together: rendered for a whole board (a page, a POST's answer, a resync), never for a
push. A push (`delta`) is the opening tag of `#game-live` with the version the page must show
(`data-from`) and the one it moves to, then every region whose HTML differs from what that socket
sent its page, each an out-of-band morph; static/js/game.js applies it only to a page showing
`data-from`, else asks for the whole board.

The regions are kept in the process (games.core.caches.FRAGMENTS), one per (game, region, variant:
what of the viewpoint the region depends on), under the stamps of what they were rendered from
(games.core.stamp, the push's too); only the newest is ever read again, so a new version replaces the
last. The names a region shows and the points a finished round counted are in its stamps too: a
rename or a moderator's void changes the board but not the game's version.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from .. import actions
from ..core import caches, presence
from ..core.actors import Actor
from ..core.stamp import Board, board_stamp, shown_stamp
from ..models import ChatMessage, Game, Seat
from .board_region import board_region
from .dice_panel import dice_panel
from .head_tag import head_tag
from .history import display_names, history_of
from .new_round_words import CONFIRMS, new_round_confirm
from .player_card import player_card
from .presenter import chat_context, finished_outcomes, live_context, shared_context
from .small_regions import KEPT, kept_region, log_region, message_region
from .token_slot import TOKEN_SLOT
from .viewpoint import Viewpoint

# The board's regions in the page's order (each a div#live-<name>).
REGIONS = (
    "board",
    "message",
    "players",
    "lobby",
    "dice",
    "clock",
    "result",
    "controls",
    "log",
    "fair",
)
HEAD = "head"  # the opening tag of #game-live (head_tag.py)


@dataclass(frozen=True)
class LiveBoard:
    """One viewpoint's board at one version: the opening tag of #game-live and the regions' HTML."""

    version: int
    head: str
    regions: Mapping[str, str]

    def whole(self, oob: bool = False) -> str:
        """The #game-live fragment (with hx-swap-oob for a WebSocket push): the one full-board render."""
        context = {
            "head": mark_safe(self.head),  # noqa: S308  rendered by our templates, escaped there
            "regions": {k: mark_safe(v) for k, v in self.regions.items()},  # noqa: S308  likewise
        }
        html: str = render_to_string("games/_live.html", context)
        if oob:
            html = html.replace('id="game-live"', 'id="game-live" hx-swap-oob="true"', 1)
        return html

    def marks(self) -> dict[str, int]:
        """What the page shows of each region once sent this board (compared by `delta`)."""
        return {name: hash(html) for name, html in self.regions.items()}


def delta(
    board: LiveBoard, since: int, shown: Mapping[str, int], shown_ground: str | None
) -> tuple[str, dict[str, int]]:
    """The push that takes a page showing version `since`, with the regions `shown` (`LiveBoard.marks`
    of what it was sent) and the ground `shown_ground`, to `board`; and the page's marks after it.
    "" when nothing would change. The board's ground goes as an empty placeholder when the page
    shows it (`for_page_showing`)."""
    marks = board.marks()
    parts = []
    for name, html in board.regions.items():
        if shown.get(name) == marks[name]:
            continue
        if name == "board":
            html = for_page_showing(html, shown_ground)
        wrapper = f'<div id="live-{name}" class="live-region"'
        parts.append(html.replace(wrapper, f'{wrapper} hx-swap-oob="morph"', 1))
    if not parts and board.version == since:
        return "", marks
    head = board.head.replace(
        '<div id="game-live"', f'<div id="game-live" hx-swap-oob="none" data-from="{since}"', 1
    )
    return head + "</div>" + "".join(parts), marks


DELTA_START = '<div id="game-live" hx-swap-oob="none" data-from="'


def render_live(
    game: Game,
    vp: Viewpoint,
    *,
    oob: bool = False,
    notice: str = "",
    seats: list[Seat] | None = None,
    connected: frozenset[int] | None = None,
) -> str:
    """The whole #game-live fragment for `vp` (with hx-swap-oob for a WebSocket push); `connected`:
    the seats present, where a push has read them already."""
    board = live_board(game, vp, notice=notice, seats=seats, connected=connected)
    return board.whole(oob)


def live_board(
    game: Game,
    vp: Viewpoint,
    *,
    notice: str = "",
    seats: list[Seat] | None = None,
    connected: frozenset[int] | None = None,
) -> LiveBoard:
    """The regions of `vp`'s board, each taken from the process's cache if rendered under the same
    stamps (for this viewpoint or another with the same variant of it), else rendered and kept."""
    seats = seats if seats is not None else list(game.seats.select_related("user"))
    if connected is None:
        connected = frozenset(presence.connected_seats(game.pk))
    return _board(game, seats, vp, connected, _Stamps.of(game, seats, connected), notice)


def live_boards(
    game: Game, vps: list[Viewpoint], *, seats: list[Seat], connected: frozenset[int]
) -> list[LiveBoard]:
    """`live_board` for several viewpoints of one version, what they share worked out once."""
    stamps = _Stamps.of(game, seats, connected)
    return [_board(game, seats, vp, connected, stamps) for vp in vps]


@dataclass(frozen=True)
class _Stamps:
    """What every viewpoint's board of one version reads alike: the names it shows, what a finished
    round counted, and the stamps its regions are kept under."""

    names: dict[int, str]
    outcomes: dict
    tag: str
    shows: str
    turn: int | None  # the index of the seat to play (None: none is)
    # The indexes of the absent players play waits for (actions.waiting_for).
    waiting: tuple[int, ...]

    @classmethod
    def of(cls, game: Game, seats: list[Seat], connected: frozenset[int]) -> _Stamps:
        names = display_names(game, seats, history_of(game))
        outcomes = finished_outcomes(game)
        tag = board_stamp(Board.of(game), connected)
        turn: int | None = None
        waiting: tuple[int, ...] = ()
        if game.status == Game.Status.PLAYING:
            seat = actions.turn_seat(game, seats, actions.engine_state(game))
            turn = seat.index if seat is not None else None
            waiting = tuple(s.index for s in actions.waiting_for(game, seats, here=connected))
        return cls(names, outcomes, tag, shown_stamp(seats, names, outcomes), turn, waiting)


def _board(
    game: Game,
    seats: list[Seat],
    vp: Viewpoint,
    connected: frozenset[int],
    stamps: _Stamps,
    notice: str = "",
) -> LiveBoard:
    tag, shows, game_id = stamps.tag, stamps.shows, game.pk
    confirm = ""  # a player's question before a new round: the buttons' variant and context read it
    if vp.is_player and game.status == Game.Status.PLAYING:
        confirm = new_round_confirm(game, seats, vp, connected)
    variants = _variants(game, vp, stamps, confirm)
    found: dict[str, str] = {}
    wanted = []
    for name, variant in variants.items():
        if variant is None:  # a region this game shows nobody now: empty
            found[name] = f'<div id="live-{name}" class="live-region"></div>'
        elif not (notice and name == "message"):  # a refusal's notice is one answer's, never kept
            wanted.append((name, _region_key(game_id, name, variant)))
    entries = caches.FRAGMENTS.get_many([key for _, key in wanted])
    for (name, _), entry in zip(wanted, entries, strict=True):
        if entry is not None and entry[0] == tag and entry[1] == shows:
            found[name] = entry[2]
    kept: list[tuple[str, tuple[str, str, str]]] = []
    if len(found) < len(variants):
        context = live_context(
            game,
            seats,
            vp,
            connected,
            with_board="board" not in found,
            with_log="log" not in found,
            shared=_shared_context(game, seats, connected, stamps),
            confirm=confirm,
        )
        context["notice"] = notice
        for name, variant in variants.items():
            if name in found or variant is None:
                continue
            if name == "log":
                context["log_items"] = log_items(context["log"])
            if name == "players":
                html = _players(game_id, context, tag, shows, kept)
            elif name == HEAD:
                html = head_tag(context)
            elif name == "dice":
                html = dice_panel(context)
            elif name == "board":
                html = board_region(context)
            elif name == "message":
                html = message_region(context)
            elif name == "log":
                html = log_region(context)
            else:
                html = _rendered(name, context)
            found[name] = html
            if not (notice and name == "message"):
                kept.append((_region_key(game_id, name, variant), (tag, shows, html)))
    if not notice:
        index = "\n".join("-" if v is None else f"={v}" for v in variants.values())
        kept.append((_viewpoint_key(game_id, vp), (tag, shows, index)))
    caches.keep_many(caches.FRAGMENTS, kept)
    return LiveBoard(game.version, found[HEAD], {name: found[name] for name in REGIONS})


def _rendered(name: str, context: dict[str, Any]) -> str:
    """A region from its template (fair dice and the buttons once per set of what they read)."""
    template = f"games/live/_{name}.html"
    if name in KEPT:
        return kept_region(name, context, lambda: render_to_string(template, context))
    return render_to_string(template, context)


def _shared_context(
    game: Game, seats: list[Seat], connected: frozenset[int], stamps: _Stamps
) -> dict[str, Any]:
    """What every viewpoint's context holds alike at this version and presence: worked out by the
    first viewpoint to render a region of it in this process, then kept for the others (a push
    renders one per socket's viewpoint)."""
    tag, shows = stamps.tag, stamps.shows
    found = caches.CONTEXTS.get(game.pk)
    if found is not None and found[0] == tag and found[1] == shows:
        return found[2]
    shared = shared_context(game, seats, connected, names=stamps.names, outcomes=stamps.outcomes)
    caches.keep(caches.CONTEXTS, game.pk, (tag, shows, shared))
    return shared


_PLAYERS_OPEN = (
    '<div id="live-players" class="live-region"><ol class="players" aria-label="Players"'
    ' data-testid="players">'
)


def _players(
    game_id: str,
    context: dict[str, Any],
    tag: str,
    shows: str,
    kept: list[tuple[str, tuple[str, str, str]]],
) -> str:
    """The players' cards (#live-players), each kept apart: only the viewer's own seats' cards differ
    from what a spectator sees, so a push to four seats renders each card twice, not five times.
    The cards rendered go into `kept`, kept with the board's other regions."""
    cards = []
    owner = context["vp"].key == "owner"
    for seat in context["seats"]:
        variant = ("mine-owner" if owner else "mine") if seat["mine"] else ""
        key = _region_key(game_id, f"player-{seat['index']}", variant)
        html = _cached(key, tag, shows)
        if html is None:
            html = player_card(seat, context)
            kept.append((key, (tag, shows, html)))
        cards.append(html)
    return _PLAYERS_OPEN + "".join(cards) + "</ol></div>"


def shared_board(game_id: str, vp: Viewpoint, event: dict) -> LiveBoard | None:
    """`vp`'s board for a push, if every region of it was rendered in this process under the push's
    stamp (None: render it). No query: the push's stamp says what the board depends on, and the
    variants are those `vp`'s last board was made of under that very stamp."""
    tag, version = event.get("tag"), event.get("version")
    if not tag or not isinstance(version, int):
        return None
    index = caches.FRAGMENTS.get(_viewpoint_key(game_id, vp))
    if index is None or index[0] != tag:
        return None
    shows, variants = index[1], index[2].split("\n")
    found = {}
    wanted = []
    for name, variant in zip((HEAD, *REGIONS), variants, strict=True):
        if variant == "-":
            found[name] = f'<div id="live-{name}" class="live-region"></div>'
        else:
            wanted.append((name, _region_key(game_id, name, variant[1:])))
    entries = caches.FRAGMENTS.get_many([key for _, key in wanted])
    for (name, _), entry in zip(wanted, entries, strict=True):
        if entry is None or entry[0] != tag or entry[1] != shows:
            return None
        found[name] = entry[2]
    return LiveBoard(version, found[HEAD], {name: found[name] for name in REGIONS})


def answer_board(
    game: Game,
    vp: Viewpoint,
    *,
    seats: list[Seat],
    tag: str | None,
    connected: frozenset[int] | None,
) -> LiveBoard:
    """`vp`'s board of `game` for a POST's answer: as the push of its version (stamped `tag`, with the
    seats `connected` it read) found it rendered in this process, nothing worked out again; else
    rendered (`live_board`). A room still open is worked out afresh, as the sockets do (its seats
    change)."""
    if tag is not None and game.status != Game.Status.OPEN:
        board = shared_board(game.pk, vp, {"tag": tag, "version": game.version})
        if board is not None:
            return board
    return live_board(game, vp, seats=seats, connected=connected)


def _variants(game: Game, vp: Viewpoint, stamps: _Stamps, confirm: str) -> dict[str, str | None]:
    """For the head and each region, what of the viewpoint it depends on ("": nothing, the same for
    every viewer; None: the region is empty now, for everyone or this viewer, as its template's
    condition says), in the page's order. A variant names only what its template reads of the
    viewer, so that viewers alike share a rendering: the one to play, the other players, watchers.
    `confirm`: the viewer's question before a new round (`new_round_confirm`)."""
    status = game.status
    is_open, playing = status == Game.Status.OPEN, status == Game.Status.PLAYING
    my_turn = playing and stamps.turn is not None and stamps.turn in vp.seats
    role = "turn" if my_turn else "player" if vp.is_player else "watch"
    controls = vp.is_player and status not in (Game.Status.OPEN, Game.Status.ABANDONED)
    return {
        HEAD: role,  # whose turn and what may be done (head_tag.py)
        "board": "turn" if my_turn else "",  # the tokens the one to play may move
        "message": vp.key if is_open else "",  # the host's first message
        "players": ",".join(map(str, vp.seats)) + (":owner" if vp.key == "owner" else ""),
        "lobby": vp.key if is_open else None,
        "dice": _dice_variant(vp, role, stamps.waiting) if playing else None,
        "clock": (role if role == "watch" else vp.key)
        if playing and actions.is_timed(game)
        else None,
        "result": vp.key if game.is_over else None,
        "controls": _controls_variant(game, vp, confirm) if controls else None,
        "log": "",
        "fair": vp.key if vp.is_player and game.nonce == 0 and not game.is_over else "",
    }


def _dice_variant(vp: Viewpoint, role: str, waiting: tuple[int, ...]) -> str:
    """The dice panel reads of its viewer: whether they play and are to play (Roll, the token
    buttons), a pass & play owner's seat field, and the absent players they may hand over (all
    but their own seats, of the `waiting`: only a friends room without a timer waits for anyone)."""
    variant = f"owner-{role}" if vp.key == "owner" else role
    if vp.is_player and any(i not in vp.seats for i in waiting):
        variant += ":" + ",".join(str(i) for i in waiting if i not in vp.seats)
    return variant


def _controls_variant(game: Game, vp: Viewpoint, confirm: str) -> str:
    """A player's buttons read whether they asked for a new round, and the question before one."""
    voted = any(i in (game.new_round_votes or []) for i in vp.seats)
    return f"{'voted' if voted else 'player'}:{CONFIRMS.get(confirm, vp.key)}"


_GROUND = re.compile(r'<g id="board-ground" data-ground="([0-9a-f]+)">')


def ground_of(html: str) -> str | None:
    """The key of the board's ground (the yards, squares and centre under the tokens) in `html`."""
    found = _GROUND.search(html)
    return found.group(1) if found else None


def for_page_showing(html: str, shown_ground: str | None) -> str:
    """The board `html` for a page that shows the ground `shown_ground` (None: unknown): if that is
    this board's ground, the ground, more than half of a board, goes as an empty placeholder that
    htmx keeps the page's own in place of (hx-preserve); else the whole board. The ground depends
    only on which colours play where, so it is the same from version to version."""
    key = ground_of(html)
    if key is None or key != shown_ground:
        return html
    markup = caches.GROUNDS.get(key)
    if markup is None:  # not made in this process (never so: the board was rendered here)
        return html
    # Found by its short opening tag, then compared: `html.replace(markup, ...)` searched for the
    # whole ground (15 of a board's 20 thousand characters) and took 70 µs a board, 3 this way.
    at = html.find(markup[: markup.index(">") + 1])
    if at < 0 or not html.startswith(markup, at):
        return html
    kept = f'<g id="board-ground" data-ground="{key}" hx-preserve="true"></g>'
    return html[:at] + kept + html[at + len(markup) :]


def log_items(log: list[tuple[int, str, str]]) -> SafeString:
    """The move log's entries, newest first (built here: a template loop over its forty entries cost
    more than the rest of the panel)."""
    if not log:
        return mark_safe('<li class="muted">No moves yet.</li>')
    return mark_safe("".join(_log_item(kind, text) for _, kind, text in log))  # noqa: S308  escaped


@lru_cache(maxsize=16384)
def _log_item(kind: str, text: str) -> str:
    """One entry, escaped once per process: each version shows the last one's forty entries again,
    one moved along (the escaping was a quarter of a version's rendering)."""
    return f'<li class="log-{escape(kind)}">{escape(text)}</li>'


def _region_key(game_id: str, region: str, variant: str) -> str:
    """One key per game, region and variant: each new version overwrites the last one's."""
    return f"live:{game_id}:{region}:{variant}"


def _viewpoint_key(game_id: str, vp: Viewpoint) -> str:
    """What `vp`'s last board was made of: its regions' variants (for `shared_board`)."""
    return f"live:{game_id}:vp:{vp.key}"


def _cached(key: str, tag: str, names: str | None = None) -> str | None:
    found = caches.FRAGMENTS.get(key)
    if found is not None and found[0] == tag and (names is None or found[1] == names):
        return found[2]
    return None


def with_page_token(html: str, token: str) -> str:
    """The fragment for one viewer's full page: each form carries that viewer's own token."""
    return html.replace(
        TOKEN_SLOT, f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(token)}">'
    )


def render_socket_name(channel_name: str) -> str:
    """Tells the page its socket's name: its POSTs carry it, so that socket skips their version."""
    return render_to_string("games/_socket_name.html", {"channel": channel_name})


def render_toast(message: str) -> str:
    return render_to_string("games/_toast.html", {"message": message})


def render_chat_log(game: Game, seats: list[Seat], actor: Actor) -> str:
    """The whole chat log with hx-swap-oob (empty string where there is no chat)."""
    context = chat_context(game, seats, actor)
    if not context["chat_enabled"]:
        return ""
    return render_to_string("games/_chat_log.html", {**context, "oob": True})


def render_chat_message(message: ChatMessage, actor: Actor) -> str:
    """One new message, appended to the log by htmx's out-of-band swap."""
    li = render_to_string(
        "games/_chat_message.html", {"m": message, "viewer_id": actor.user_id, "reported": set()}
    )
    return f'<ol hx-swap-oob="beforeend:#chat-log">{li}</ol>'


def render_chat_hidden(message_id: int) -> str:
    """Removes a message a moderator hid from the page (htmx's out-of-band delete)."""
    return render_to_string("games/_chat_hidden.html", {"id": message_id})
