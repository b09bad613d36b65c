"""The live part of the game page, rendered per viewpoint: what a spectator, the owner of a local table,
or one seat of a friends room sees (whose tokens are clickable differs). Each viewpoint is rendered once
per version and presence in each process, however many of its connections show it.

The fragments are kept in the process (games.caches.FRAGMENTS), one per (game, viewpoint), tagged with
what they were rendered from; only the newest is ever read again, so a new version replaces the last. They used to be shared
through Redis, but a fragment is about 30 KB: writing every one and reading it back cost more than the
renders it saved (in a two-player game most viewpoints are shown by one connection), and a process
renders a viewpoint at most once per version anyway.

The names a fragment shows are part of what it is tagged with: the move log and the message line name
accounts by reference (games.narration), filled in from the accounts as read for the render, so a
rename, committed in any process, changes the tag and a board rendered before it is never served after.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from accounts.sanctions import mute_notice_for
from leaderboard.outcomes import UNSCORED, Outcome, round_outcomes

from . import actions, actors, broadcast, caches, engine, presence
from .actions import chat, pauses, setup
from .actors import Actor
from .board_view import board_context, where_to
from .broadcast import fragment_tag
from .engine.state import State
from .models import Action, ChatMessage, Game, Round, Seat
from .narration import colour_name, referenced_users, shown
from .staking.rematch import offer_tag

LOG_LENGTH = 40


@dataclass(frozen=True)
class Viewpoint:
    key: str  # names the rendering: "spectator", "owner", "seat-1", "host-0", "guest", "anon"
    seats: tuple[int, ...] = ()  # seat indexes this viewer plays
    host: bool = False
    can_join: bool = False
    anonymous: bool = False

    @property
    def is_player(self) -> bool:
        return bool(self.seats)


def viewpoint_for(game: Game, seats: list[Seat], actor: Actor) -> Viewpoint:
    mine = tuple(s.index for s in actors.seats_of(game, seats, actor))
    host = actors.owns(game, actor)
    if game.mode != Game.Mode.FRIENDS:
        return Viewpoint("owner", mine, host=host) if mine else Viewpoint("spectator")
    if mine:
        return Viewpoint(f"{'host' if host else 'seat'}-{mine[0]}", mine, host=host)
    if game.status == Game.Status.OPEN and any(s.kind == Seat.Kind.OPEN for s in seats):
        if game.invitee_id is not None and game.invitee_id != actor.user_id:
            return Viewpoint("spectator")  # a rematch offered to someone else
        if actor.is_authenticated:
            return Viewpoint("guest", can_join=True)
        return Viewpoint("anon", anonymous=True)
    return Viewpoint("spectator")


def _cache_key(game_id: str, vp: Viewpoint) -> str:
    """One key per game and viewpoint: each new version overwrites the fragment of the last."""
    return f"live:{game_id}:{vp.key}"


def _rendered_from(game: Game, connected: frozenset[int]) -> str:
    """What a fragment depends on besides the viewpoint: round, version, presence, deadline and a
    finished staked game's rematch offer."""
    offer = offer_tag(game)
    return fragment_tag(game.round, game.version, connected, epoch_ms(game.deadline), offer)


def shared_fragment(game_id: str, vp: Viewpoint, event: dict) -> str | None:
    """The fragment another connection with viewpoint `vp` rendered for this push, if any (with the
    names as they were read for this version: a rename since is pushed after it, and every connection
    then renders afresh)."""
    tag = event.get("tag")
    if not tag:
        return None
    html = _cached(_cache_key(game_id, vp), tag)
    if html is None:
        return None
    return html.replace('id="game-live"', 'id="game-live" hx-swap-oob="true"', 1)


def render_socket_name(channel_name: str) -> str:
    """Tells the page its socket's name: its POSTs carry it, so that socket skips their version."""
    return render_to_string("games/_socket_name.html", {"channel": channel_name})


def render_chat_hidden(message_id: int) -> str:
    """Removes a message a moderator hid from the page (htmx's out-of-band delete)."""
    return render_to_string("games/_chat_hidden.html", {"id": message_id})


def render_toast(message: str) -> str:
    return render_to_string("games/_toast.html", {"message": message})


def _cached(key: str, tag: str, names: str | None = None) -> str | None:
    found = caches.FRAGMENTS.get(key)
    if found is not None and found[0] == tag and (names is None or found[1] == names):
        return found[2]
    return None


def _keep(key: str, tag: str, names: str, html: str) -> None:
    caches.keep(caches.FRAGMENTS, key, (tag, names, html))


def epoch_ms(when: datetime | None) -> int:
    return broadcast.epoch_ms(when)


# The CSRF token slot of each POST form in the board fragment (templates/games/_page_token.html). The
# fragment is cached and shared between viewers, so it never carries anyone's token: htmx sends the
# page's token in a header, and the full page's render fills the slots for a browser without JavaScript.
TOKEN_SLOT = '<input type="hidden" name="csrfmiddlewaretoken" value="" data-page-token>'  # noqa: S105  an empty slot, not a secret


def with_page_token(html: str, token: str) -> str:
    """The fragment for one viewer's full page: each form carries that viewer's own token."""
    return html.replace(
        TOKEN_SLOT, f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(token)}">'
    )


def render_live(
    game: Game,
    vp: Viewpoint,
    *,
    oob: bool = False,
    notice: str = "",
    seats: list[Seat] | None = None,
) -> str:
    """The #game-live fragment for `vp` (with hx-swap-oob for a WebSocket push)."""
    seats = seats if seats is not None else list(game.seats.select_related("user"))
    connected = frozenset(presence.connected_seats(game.pk))
    names = display_names(game, seats, _history(game))
    key, tag = _cache_key(game.pk, vp), _rendered_from(game, connected)
    shows = _names_tag(seats, names)
    html = None if notice else _cached(key, tag, shows)
    if html is None:
        context = live_context(game, seats, vp, connected, names=names)
        context["notice"] = notice
        html = render_to_string("games/_live.html", context)
        if not notice:
            _keep(key, tag, shows, html)
    if oob:
        html = html.replace('id="game-live"', 'id="game-live" hx-swap-oob="true"', 1)
    return html


def display_names(game: Game, seats: list[Seat], history: History) -> dict[int, str]:
    """{account id: its name now} for the accounts the board names: its seats' players, and anyone
    the message line or the log names who has left the room since (one query, only then)."""
    names = {s.user.pk: s.user.username for s in seats if s.user is not None}
    texts = [game.message, *(text for _, _, text in history.log)]
    wanted = referenced_users(texts) - names.keys()
    if wanted:
        users = get_user_model().objects.filter(pk__in=wanted)
        names.update(users.values_list("pk", "username"))
    return names


def _names_tag(seats: list[Seat], names: dict[int, str]) -> str:
    """The names a fragment shows, as part of its cache key."""
    shown_names = [s.display_name for s in seats] + [f"{k}={v}" for k, v in sorted(names.items())]
    return hashlib.sha1("\n".join(shown_names).encode(), usedforsecurity=False).hexdigest()[:12]


def _seat_view(
    game: Game,
    seat: Seat,
    state: State | None,
    turn: Seat | None,
    connected: Collection[int],
    vp: Viewpoint,
    places: list[int],
    outcomes: dict[int, Outcome],
) -> dict[str, Any]:
    tokens_home = 0
    total = 0
    for colour in seat.colours:
        if state is not None and colour in state.colours:
            progresses = state.tokens[state.colours.index(colour)]
            tokens_home += sum(1 for p in progresses if p >= engine.HOME)
            total += len(progresses)
    place = places.index(seat.index) + 1 if seat.index in places else None
    points, not_counted = None, ""
    if place is not None and game.status == Game.Status.FINISHED:
        # The stored results, as the standings counted them (a finished round with none: pass & play).
        outcome = outcomes.get(seat.index, Outcome(0, UNSCORED))
        points, not_counted = outcome.points, outcome.not_counted
    online = None
    if game.mode == Game.Mode.FRIENDS and seat.kind == Seat.Kind.HUMAN:
        online = seat.pk in connected
    return {
        "seat": seat,
        "index": seat.index,
        "name": seat.display_name,
        "colours": seat.colours,
        "colour_names": " and ".join(colour_name(c) for c in seat.colours),
        "kind": seat.kind,
        "is_bot": seat.is_bot,
        "active": turn is not None and seat.index == turn.index,
        "home": tokens_home,
        "total": total,
        "online": online,
        "mine": seat.index in vp.seats,
        "place": place,
        "points": points,
        "not_counted": not_counted,  # why the round added nothing for this seat, "" if it counted
        "resigned": seat.resigned,
        "voted": seat.index in (game.new_round_votes or []),
        "away": seat.is_away and game.status == Game.Status.PLAYING,
        "absent_since": seat.last_seen.isoformat() if seat.last_seen else "",
    }


def live_context(
    game: Game,
    seats: list[Seat],
    vp: Viewpoint,
    connected: Collection[int],
    *,
    names: dict[int, str] | None = None,
) -> dict[str, Any]:
    state = None
    if game.status != Game.Status.OPEN:
        state = actions.engine_state(game)
    turn = actions.turn_seat(game, seats, state) if state is not None else None
    my_turn = bool(turn and turn.index in vp.seats and game.status == Game.Status.PLAYING)
    legal = engine.legal_moves(state) if state is not None else ()
    mine_legal = legal if my_turn else ()
    can_roll = bool(my_turn and state is not None and engine.can_roll(state))
    places = list(game.result_places) if game.status == Game.Status.FINISHED else []
    if state is not None and not places:
        places = [actions.seat_of_player(seats, state.players[p]).index for p in state.places]
    tokens = (
        state.to_json()["tokens"]
        if state is not None
        else {c: [-1] * _token_count(game) for s in seats for c in s.colours}
    )
    history = _history(game)
    if names is None:
        names = display_names(game, seats, history)
    last_token = history.last_token
    options_by_token: dict[str, list[dict]] = {}
    targets = []
    for m in mine_legal:
        key = f"{m.colour}:{m.index}"
        label = []
        if m.pair:
            label.append("pair")
        # (mine_legal is empty without a state)
        if isinstance(m.die, int) and len(set(state.dice)) > 1:  # type: ignore[union-attr]
            label.append(f"use {m.die}")
        if m.die == "total":
            label.append(f"total {sum(state.dice)}")  # type: ignore[union-attr]
        opt = {"die": m.die, "pair": m.pair, "to": m.to, "label": ", ".join(label) or "move"}
        if opt not in options_by_token.setdefault(key, []):
            options_by_token[key].append(opt)
        targets.append(
            {"colour": m.colour, "index": m.index, "to": m.to, "die": m.die, "pair": m.pair}
        )
    board = board_context(
        tokens,
        ruleset=game.ruleset,
        movable={(m.colour, m.index) for m in mine_legal},
        targets=targets,
        last_moved=last_token,
    )
    token_buttons = []
    if my_turn and turn is not None:
        for seat in seats:
            if seat.index != turn.index:
                continue
            for colour in seat.colours:
                for i, progress in enumerate(tokens.get(colour, [])):
                    key = f"{colour}:{i}"
                    opts = options_by_token.get(key, [])
                    token_buttons.append(
                        {
                            "colour": colour,
                            "index": i,
                            "label": i + 1,
                            "key": key,
                            "options": opts,
                            "options_json": json.dumps(opts),
                            "movable": bool(opts),
                            "where": _where(progress),
                            "goes": where_to(opts),
                            "choose": len(opts) > 1,
                            "question": _question(opts),
                        }
                    )
    outcomes = round_outcomes(game.pk, game.round) if game.status == Game.Status.FINISHED else {}
    seat_views = [_seat_view(game, s, state, turn, connected, vp, places, outcomes) for s in seats]
    waiting = (
        actions.waiting_for(game, seats, here=connected)
        if game.status == Game.Status.PLAYING
        else []
    )
    handover = []
    if vp.is_player and waiting:
        for s in waiting:
            if s.index in vp.seats:
                continue
            handover.append(
                {
                    "index": s.index,
                    "name": s.display_name,
                    "since": (s.last_seen or game.started).isoformat(),  # type: ignore[union-attr]  # a game in play has started
                    "after": actions.ABSENT_HANDOVER_SECONDS,
                }
            )
    dice = list(state.dice) if state is not None else []
    host_seats = []
    if game.status == Game.Status.OPEN and vp.host:
        host_seats = [s for s in seats if s.kind in (Seat.Kind.OPEN, Seat.Kind.COMPUTER)]
    single = None
    all_opts = [(k, o) for k, opts in options_by_token.items() for o in opts]
    if len(all_opts) == 1:
        k, o = all_opts[0]
        colour, index = k.split(":")
        single = json.dumps(
            {"colour": colour, "index": int(index), "die": o["die"], "pair": o["pair"]}
        )
    return {
        **_clock_context(game, seats, vp, turn),
        "game": game,
        "vp": vp,
        "seats": seat_views,
        "turn": turn,
        "turn_name": turn.display_name if turn else "",
        "my_turn": my_turn,
        "can_roll": can_roll,
        "awaiting": state.awaiting if state is not None else "",
        "dice": dice,
        "distinct_dice": len(set(dice)) > 1,
        "last_roll": list(history.last_roll),
        "dice_count": engine.ruleset(game.ruleset).DICE,
        "rolls_owed": state.rolls if state is not None else 0,
        "token_buttons": token_buttons,
        "any_move": bool(mine_legal),
        "single_move": single,
        "waiting": waiting,
        "waiting_names": ", ".join(s.display_name for s in waiting),
        "handover": handover,
        "log": [(seq, kind, shown(text, names)) for seq, kind, text in history.log],
        "message": shown(game.message, names),
        # The room's first message speaks to its host: a guest's page says what they wait for instead.
        "host_message": game.status == Game.Status.OPEN and game.message == setup.INVITE_HINT,
        "host_seats": host_seats,
        "open_seats": sum(1 for s in seats if s.kind == Seat.Kind.OPEN),
        "votes": game.new_round_votes or [],
        "my_vote": any(i in (game.new_round_votes or []) for i in vp.seats),
        "seed_editable": vp.is_player and game.nonce == 0 and not game.is_over,
        "my_seed_seats": [s for s in seats if s.index in vp.seats],
        "rounds": list(history.rounds),
        "urls": {
            "roll": reverse("game_roll", args=[game.pk]),
            "move": reverse("game_move", args=[game.pk]),
            "resign": reverse("game_resign", args=[game.pk]),
            "new_round": reverse("game_new_round", args=[game.pk]),
            "join": reverse("game_join", args=[game.pk]),
            "start": reverse("game_start", args=[game.pk]),
            "seat": reverse("game_seat", args=[game.pk]),
            "seed": reverse("game_seed", args=[game.pk]),
            "takeover": reverse("game_takeover", args=[game.pk]),
            "pause": reverse("game_pause", args=[game.pk]),
            "resume": reverse("game_resume", args=[game.pk]),
            "back": reverse("game_back", args=[game.pk]),
            "leave": reverse("game_leave", args=[game.pk]),
            "record": reverse("game_record", args=[game.pk]),
            "page": reverse("game", args=[game.pk]),
        },
        "debug": settings.DEBUG,
        **board,
    }


def _clock_context(game: Game, seats: list[Seat], vp: Viewpoint, turn: Seat | None) -> dict:
    """The timer, pause and away parts of the board."""
    playing = game.status == Game.Status.PLAYING
    timed = actions.is_timed(game) and playing
    people = pauses.people_game(game, seats)
    pause = pauses.current_pause(game) if timed else None
    mine = [s for s in seats if s.index in vp.seats and not s.resigned]
    pauses_left = pauses.pauses_left(game, mine[0]) if (timed and people and mine) else 0
    return {
        "timed": timed,
        "people": people,
        "paused": bool(timed and game.is_paused),
        "pause": pause,
        "pause_by": pause.seat.display_name if pause else "",
        "pause_ends_ms": epoch_ms(game.deadline) if pause else 0,
        "paused_left_s": round((game.paused_remaining_ms or 0) / 1000),
        "deadline_ms": epoch_ms(game.deadline) if timed and not game.is_paused else 0,
        "turn_deadline_ms": epoch_ms(game.turn_deadline) if timed else 0,
        "turn_is_person": bool(turn and not turn.is_bot),
        "pauses_left": pauses_left,
        "can_pause": bool(timed and people and mine and not game.is_paused),
        "i_am_away": bool(playing and any(s.is_away for s in mine)),
    }


@dataclass(frozen=True)
class History:
    """What the board shows from the action log and the finished rounds."""

    last_token: tuple | None  # the token moved last this round (highlighted)
    last_roll: tuple[int, ...]  # this round's last roll
    log: tuple[tuple, ...]  # (seq, kind, text) of the newest narrated actions, newest first
    rounds: tuple[int, ...]  # numbers of the rounds kept for replay


def _history(game: Game) -> History:
    """The version's history, read once per process for all its viewpoints (the mover's POST answer,
    the other seats', the spectators'): games.caches.HISTORIES."""
    key = (game.pk, game.round, game.version)
    found = caches.HISTORIES.get(key)
    if found is not None:
        return found
    history = _one_step_on(game) or _read_history(game)
    caches.keep(caches.HISTORIES, key, history)
    return history


def _one_step_on(game: Game) -> History | None:
    """This version's history from the last version's, kept here, and the one action between them (one
    query instead of four). Only a roll or a move in a round still being played: anything else may
    end a round or start one, and is read in full."""
    previous = caches.HISTORIES.get((game.pk, game.round, game.version - 1))
    if previous is None or game.status != Game.Status.PLAYING:
        return None
    step = (
        Action.objects.filter(game=game, seq=game.version)
        .values_list("round", "kind", "data", "text")
        .first()
    )
    if step is None:
        return None
    round_, kind, data, text = step
    if round_ != game.round or kind not in (Action.Kind.ROLL, Action.Kind.MOVE):
        return None
    last_token, last_roll = previous.last_token, previous.last_roll
    if kind == Action.Kind.MOVE:
        last_token = tuple(data["move"]["token"])
    else:
        last_roll = tuple(data["roll"])
    log = previous.log
    if text:
        log = ((game.version, kind, text), *log[: LOG_LENGTH - 1])
    return History(last_token, last_roll, log, previous.rounds)


def _read_history(game: Game) -> History:
    # Up to this version only: a row committed since the game was read belongs to the next version.
    actions_now = Action.objects.filter(game=game, seq__lte=game.version)
    this_round = actions_now.filter(round=game.round).order_by("-seq")
    move = this_round.filter(kind=Action.Kind.MOVE).values_list("data", flat=True).first()
    roll = this_round.filter(kind=Action.Kind.ROLL).values_list("data", flat=True).first()
    log = actions_now.exclude(text="").order_by("-seq").values_list("seq", "kind", "text")
    return History(
        last_token=tuple(move["move"]["token"]) if move else None,
        last_roll=tuple(roll["roll"]) if roll else (),
        log=tuple(log[:LOG_LENGTH]),
        rounds=tuple(Round.objects.filter(game=game).values_list("number", flat=True)),
    )


def _token_count(game: Game) -> int:
    return int((game.options or {}).get("tokens", 4))


def _where(progress: int) -> str:
    if progress < 0:
        return "in the yard"
    if progress >= engine.HOME:
        return "home"
    if progress > engine.LAST_TRACK:
        return "in the home column"
    return f"{progress} steps out"


# --- chat ----------------------------------------------------------------------------------------------


def chat_context(game: Game, seats: list[Seat], actor: Actor) -> dict:
    """What the chat panel needs (game.html, and the WebSocket's whole-log resync)."""

    # Every room with two or more places for people shows the panel, from the waiting room on (the page
    # around the live board is not re-rendered when guests arrive); the service decides who may write.
    people_places = sum(1 for s in seats if s.kind in (Seat.Kind.HUMAN, Seat.Kind.OPEN))
    enabled = game.mode == Game.Mode.FRIENDS and people_places >= 2
    return {
        "game": game,
        "chat_enabled": enabled,
        "chat_open": chat.chat_open(game),
        "chat_mode": chat.chat_mode(game),
        "quick_phrases": chat.QUICK_PHRASES,
        "chat_player": bool(actors.seats_of(game, seats, actor)),
        "chat_messages": chat.messages(game) if enabled else [],
        "viewer_id": actor.user_id,
        "reported": chat.reported_by(game, actor) if enabled else set(),
        # A muted player sees until when and why before they type.
        "muted": mute_notice_for(actor.user_id) if enabled else "",
    }


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


def _question(options: list[dict]) -> str:
    """What the chooser asks when a token can move more than one way."""
    kinds = {bool(o["pair"]) for o in options}
    dice = {o["die"] for o in options}
    if kinds == {True, False}:
        return "Single or pair?"
    if len(dice) > 1:
        return "Which number?"
    return "Which move?"
