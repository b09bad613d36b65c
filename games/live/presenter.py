"""What the live part of the game page shows: the template context of the board for a viewpoint
(templates/games/_live.html: the seats' cards, the dice, the tokens that may move and how, the log, the
clock, the buttons), worked out from the game, its seats, the engine state, the log's history and who
is connected; and that of the chat panel for a viewer. No HTML here (games.live.fragments renders it),
and nothing written.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, reverse

from accounts.users.sanctions import mute_notice_for
from leaderboard.outcomes import UNSCORED, Outcome, round_outcomes

from .. import actions, engine
from ..actions import chat, pauses, setup
from ..core import actors, selectors
from ..core.actors import Actor
from ..core.narration import colour_name, shown
from ..core.stamp import epoch_ms
from ..engine.state import State
from ..models import Game, Seat
from .board_region import drawn_board
from .board_view import where_to
from .history import display_names, history_of
from .new_round_words import new_round_confirm
from .viewpoint import Viewpoint


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
    points, not_counted, rating_change = None, "", None
    if place is not None and game.status == Game.Status.FINISHED:
        # The stored results, as the standings counted them (a finished round with none: pass & play).
        outcome = outcomes.get(seat.index, Outcome(0, UNSCORED))
        points, not_counted = outcome.points, outcome.not_counted
        rating_change = outcome.rating_change
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
        "rating": seat.rating,  # the account's rating when the round started (None: not rated)
        "rating_change": rating_change,  # what the finished round moved it by (None: not rated)
        "resigned": seat.resigned,
        "voted": seat.index in (game.new_round_votes or []),
        "away": seat.is_away and game.status == Game.Status.PLAYING,
        "absent_since": seat.last_seen.isoformat() if seat.last_seen else "",
    }


def finished_outcomes(game: Game) -> dict[int, Outcome]:
    """What the finished round counted for each seat, from the stored results ({} while in play)."""
    return round_outcomes(game.pk, game.round) if game.status == Game.Status.FINISHED else {}


def live_context(
    game: Game,
    seats: list[Seat],
    vp: Viewpoint,
    connected: Collection[int],
    *,
    names: dict[int, str] | None = None,
    outcomes: dict[int, Outcome] | None = None,
    with_board: bool = True,
    with_log: bool = True,
    shared: dict[str, Any] | None = None,
    confirm: str | None = None,
) -> dict[str, Any]:
    """The board's context for `vp`: what every viewer sees alike (`shared_context`; pass `shared`,
    that of the same version and presence, where another viewpoint worked it out already), then what
    is this viewer's own (whose tokens are clickable, their buttons, their seat's card). `confirm`:
    the viewer's question before a new round (`new_round_words`), where the caller asked it already."""
    if shared is None:
        shared = shared_context(game, seats, connected, names=names, outcomes=outcomes)
    if with_log:
        with_named_log(shared)
    # The shared part holds no Game or Seat (caches' rule): this viewer's own read of them is used.
    by_index = {s.index: s for s in seats}
    state, turn = shared["state"], by_index.get(shared["turn_index"])
    waiting = [by_index[i] for i in shared["waiting_indexes"]]
    my_turn = bool(turn and turn.index in vp.seats and game.status == Game.Status.PLAYING)
    mine_legal = shared["legal"] if my_turn else ()
    can_roll = bool(my_turn and state is not None and engine.can_roll(state))
    options_by_token, targets = _move_options(state, mine_legal)
    board = {}
    if with_board:  # (the board's drawing, not needed where its region is kept already)
        board = drawn_board(
            shared["tokens"],
            ruleset=game.ruleset,
            movable={(m.colour, m.index) for m in mine_legal},
            targets=targets,
            last_moved=shared["history"].last_token,
        )
    token_buttons = []
    if my_turn and turn is not None:
        token_buttons = _token_buttons(seats, turn, shared["tokens"], options_by_token)
    seat_views = [
        {**view, "seat": by_index[view["index"]], "mine": view["index"] in vp.seats}
        for view in shared["seats"]
    ]
    host_seats = []
    if game.status == Game.Status.OPEN and vp.host:
        host_seats = [s for s in seats if s.kind in (Seat.Kind.OPEN, Seat.Kind.COMPUTER)]
    votes = game.new_round_votes or []
    playing = game.status == Game.Status.PLAYING
    if confirm is None:
        confirm = new_round_confirm(game, seats, vp, connected) if vp.is_player and playing else ""
    return {
        **shared,
        **_clock_context(game, seats, vp, shared["clock"]),
        "game": game,
        "urls": _urls(game),  # (per request: the script prefix is each request's own)
        "vp": vp,
        "seats": seat_views,
        "turn": turn,
        "waiting": waiting,
        "my_turn": my_turn,
        "can_roll": can_roll,
        "token_buttons": token_buttons,
        "any_move": bool(mine_legal),
        "single_move": _single_move(options_by_token),
        "handover": _handover(game, vp, waiting),
        "host_seats": host_seats,
        "my_vote": any(i in votes for i in vp.seats),
        "new_round_confirm": confirm,
        "seed_editable": vp.is_player and game.nonce == 0 and not game.is_over,
        "my_seed_seats": [s for s in seats if s.index in vp.seats],
        **board,
    }


def shared_context(
    game: Game,
    seats: list[Seat],
    connected: Collection[int],
    *,
    names: dict[int, str] | None = None,
    outcomes: dict[int, Outcome] | None = None,
) -> dict[str, Any]:
    """What the board's context holds alike for every viewer of one version with the same seats
    present: worked out once however many viewpoints a push renders (`live_context` adds each
    one's own). The move log's sentences are named only where asked (`with_named_log`)."""
    state = None
    if game.status != Game.Status.OPEN:
        state = actions.engine_state(game)
    turn = actions.turn_seat(game, seats, state) if state is not None else None
    places = list(game.result_places) if game.status == Game.Status.FINISHED else []
    if state is not None and not places:
        places = [actions.seat_of_player(seats, state.players[p]).index for p in state.places]
    tokens = (
        state.to_json()["tokens"]
        if state is not None
        else {c: [-1] * _token_count(game) for s in seats for c in s.colours}
    )
    history = history_of(game)
    if names is None:
        names = display_names(game, seats, history)
    if outcomes is None:
        outcomes = finished_outcomes(game)
    nobody = Viewpoint("spectator")
    waiting = (
        actions.waiting_for(game, seats, here=connected)
        if game.status == Game.Status.PLAYING
        else []
    )
    dice = list(state.dice) if state is not None else []
    timed = actions.is_timed(game) and game.status == Game.Status.PLAYING
    pause = selectors.current_pause(game) if timed else None
    seat_views = [
        _seat_view(game, s, state, turn, connected, nobody, places, outcomes) for s in seats
    ]
    for view in seat_views:
        del view["seat"]  # (each viewer's own Seat goes back in: `live_context`)
    pause_by = pause.seat.display_name if pause else None
    return {
        "state": state,
        "pause_by": pause_by,
        "clock": _shared_clock(game, seats, turn, pause_by),
        "legal": engine.legal_moves(state) if state is not None else (),
        "tokens": tokens,
        "history": history,
        "names": names,
        # Each seat's card as a spectator sees it (`live_context` marks the viewer's own).
        "seats": seat_views,
        "turn_index": turn.index if turn else None,
        "turn_name": turn.display_name if turn else "",
        "awaiting": state.awaiting if state is not None else "",
        "dice": dice,
        "distinct_dice": len(set(dice)) > 1,
        "last_roll": list(history.last_roll),
        "dice_count": engine.ruleset(game.ruleset).DICE,
        "rolls_owed": state.rolls if state is not None else 0,
        "waiting_indexes": [s.index for s in waiting],
        "waiting_names": ", ".join(s.display_name for s in waiting),
        "log": [],
        "message": shown(game.message, names),
        # The room's first message speaks to its host: a guest's page says what they wait for instead.
        "host_message": game.status == Game.Status.OPEN and game.message == setup.INVITE_HINT,
        "open_seats": sum(1 for s in seats if s.kind == Seat.Kind.OPEN),
        "votes": game.new_round_votes or [],
        "rounds": list(history.rounds),
        "debug": settings.DEBUG,
    }


def with_named_log(shared: dict[str, Any]) -> None:
    """The move log's forty sentences, named anew, into `shared` (once: only where the log's region
    is rendered, not kept already)."""
    if not shared["log"] and shared["history"].log:
        names = tuple(shared["names"].items())
        shared["log"] = [
            (seq, kind, _named(text, names)) for seq, kind, text in shared["history"].log
        ]


@lru_cache(maxsize=16384)
def _named(text: str, names: tuple[tuple[int, str], ...]) -> str:
    """One sentence of the log as shown with `names` ({account: name} as items), once per process:
    each version's log is the last one's sentences and one more, named alike; a rename changes
    `names`, so the sentences are named anew."""
    return shown(text, dict(names))


def _move_options(
    state: State | None, mine_legal: Collection[engine.Move]
) -> tuple[dict[str, list[dict]], list[dict]]:
    """The ways each of the viewer's tokens may move ({"colour:index": [option, ...]}, each labelled
    for the chooser) and the board's move targets."""
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
    return options_by_token, targets


def _token_buttons(
    seats: list[Seat], turn: Seat, tokens: dict, options_by_token: dict[str, list[dict]]
) -> list[Mapping[str, Any]]:
    """A button per token of the seat to act, with its options (the keyboard's and the chooser's)."""
    buttons = []
    for seat in seats:
        if seat.index != turn.index:
            continue
        for colour in seat.colours:
            for i, progress in enumerate(tokens.get(colour, [])):
                opts = options_by_token.get(f"{colour}:{i}", [])
                options = tuple((o["die"], o["pair"], o["to"], o["label"]) for o in opts)
                buttons.append(_token_button(colour, i, progress, options))
    return buttons


@lru_cache(maxsize=4096)
def _token_button(
    colour: str, index: int, progress: int, options: tuple[tuple[Any, ...], ...]
) -> Mapping[str, Any]:
    """One token's button, worked out once per process for where it is and how it may move (each
    option's die, pair, destination and label, as `_move_options` makes them: a die is a number or
    "total", a pair a bool, so no two options that are equal as keys are written differently).
    Read-only: every board that shows it shares it."""
    opts = [
        {"die": die, "pair": pair, "to": to, "label": label} for die, pair, to, label in options
    ]
    key = f"{colour}:{index}"
    return MappingProxyType(
        {
            "colour": colour,
            "index": index,
            "label": index + 1,
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


def _single_move(options_by_token: dict[str, list[dict]]) -> str | None:
    """The one move the viewer can make, as JSON, if there is exactly one."""
    all_opts = [(k, o) for k, opts in options_by_token.items() for o in opts]
    if len(all_opts) != 1:
        return None
    k, o = all_opts[0]
    colour, index = k.split(":")
    return json.dumps({"colour": colour, "index": int(index), "die": o["die"], "pair": o["pair"]})


def _handover(game: Game, vp: Viewpoint, waiting: list[Seat]) -> list[dict[str, Any]]:
    """The absent players a player may hand to the computer (once they have been away long enough)."""
    if not vp.is_player:
        return []
    return [
        {
            "index": s.index,
            "name": s.display_name,
            "since": (s.last_seen or game.started).isoformat(),  # type: ignore[union-attr]  # a game in play has started
            "after": actions.ABSENT_HANDOVER_SECONDS,
        }
        for s in waiting
        if s.index not in vp.seats
    ]


# The board's forms post to these (games/web/urls.py), keyed as the template names them.
_URL_NAMES = {
    "roll": "game_roll",
    "move": "game_move",
    "resign": "game_resign",
    "new_round": "game_new_round",
    "join": "game_join",
    "start": "game_start",
    "seat": "game_seat",
    "seed": "game_seed",
    "takeover": "game_takeover",
    "pause": "game_pause",
    "resume": "game_resume",
    "back": "game_back",
    "leave": "game_leave",
    "record": "game_record",
    "page": "game",
    "live": "game_live",
}


def _urls(game: Game) -> Mapping[str, str]:
    return _urls_of(game.pk, get_script_prefix())


@lru_cache(maxsize=4096)
def _urls_of(game_id: str, script_prefix: str) -> Mapping[str, str]:
    """A game's form addresses never change: worked out once per game and process (fifteen reverses
    on every render were a tenth of its cost). Per script prefix too, which `reverse` puts in front
    (a site served under /ludo/ by its proxy: each request's own)."""
    return MappingProxyType(
        {key: reverse(name, args=[game_id]) for key, name in _URL_NAMES.items()}
    )


def _shared_clock(
    game: Game, seats: list[Seat], turn: Seat | None, pause_by: str | None
) -> dict[str, Any]:
    """The timer and pause parts of the board every viewer sees alike (`pause_by`: who took the
    pause under way, None if none is); `_clock_context` adds the viewer's own."""
    timed = actions.is_timed(game) and game.status == Game.Status.PLAYING
    return {
        "timed": timed,
        "people": pauses.people_game(game, seats),
        "paused": bool(timed and game.is_paused),
        "pause": pause_by is not None,
        "pause_by": pause_by or "",
        "pause_ends_ms": epoch_ms(game.deadline) if pause_by is not None else 0,
        "paused_left_s": round((game.paused_remaining_ms or 0) / 1000),
        "deadline_ms": epoch_ms(game.deadline) if timed and not game.is_paused else 0,
        "turn_deadline_ms": epoch_ms(game.turn_deadline) if timed else 0,
        "turn_is_person": bool(turn and not turn.is_bot),
    }


def _clock_context(
    game: Game, seats: list[Seat], vp: Viewpoint, clock: dict[str, Any]
) -> dict[str, Any]:
    """The timer, pause and away parts of the board for `vp`: `clock` (`_shared_clock`), then the
    viewer's pauses left, whether they may pause, whether they are away."""
    timed, people = clock["timed"], clock["people"]
    mine = [s for s in seats if s.index in vp.seats and not s.resigned]
    pauses_left = selectors.pauses_left(game, mine[0]) if (timed and people and mine) else 0
    return {
        **clock,
        "pauses_left": pauses_left,
        "can_pause": bool(timed and people and mine and not game.is_paused),
        "i_am_away": bool(game.status == Game.Status.PLAYING and any(s.is_away for s in mine)),
    }


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


def _question(options: list[dict]) -> str:
    """What the chooser asks when a token can move more than one way."""
    kinds = {bool(o["pair"]) for o in options}
    dice = {o["die"] for o in options}
    if kinds == {True, False}:
        return "Single or pair?"
    if len(dice) > 1:
        return "Which number?"
    return "Which move?"


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
        # Without the lines of accounts this viewer blocked (accounts.social).
        "chat_messages": selectors.chat_messages(game, viewer_id=actor.user_id) if enabled else [],
        "viewer_id": actor.user_id,
        "reported": selectors.reported_by(game, actor) if enabled else set(),
        # A muted player sees until when and why before they type.
        "muted": mute_notice_for(actor.user_id) if enabled else "",
    }
