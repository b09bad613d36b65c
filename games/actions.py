"""Every change to a game: one `do_*` function per player or system action.

Each runs in one transaction holding a row lock on the Game (`select_for_update`; SQLite takes its write
lock when the transaction starts), checks who acts, whose turn it is and the version the player saw,
writes the Action log entry and the new state, bumps `version`, and only after the commit tells the game's
group (WebSocket viewers) and schedules the computer's next turn. Any process may call these: a web view
for a click, the consumer for a `ws-send`, a Celery worker for a bot turn.

Errors are GameError subclasses carrying the HTTP status a view should answer with and a sentence a
player can read; nothing is written when one is raised.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import engine, presence
from .actors import Actor, controls, owns, playing_seats, seats_of, sits_in
from .engine import fair
from .engine.bots import ROLL_ACTION, choose_action
from .errors import Conflict, GameError, GameNotFound, NotAllowed, StaleVersion
from .models import Action, Game, Pause, Round, Seat
from .narration import colour_name, describe, seat_label

log = logging.getLogger(__name__)

ABSENT_HANDOVER_SECONDS = 120

# Timed rooms: seconds per action (0 = off). Tests (LUDOPAT_TEST_SEEDS on) may also use short ones.
TIMER_CHOICES = (0, 10, 15, 30)
TEST_TIMER_CHOICES = (2, 3, 4, 5)
PAUSE_COUNT_CHOICES = (0, 1, 2, 3)
PAUSE_SECONDS_CHOICES = (30, 60, 120)
TEST_PAUSE_SECONDS_CHOICES = (2, 3, 5)
AWAY_AFTER_TIMEOUTS = 3  # timeouts in a row that mark a seat away


def timer_choices() -> tuple[int, ...]:
    if settings.LUDOPAT_TEST_SEEDS:
        return tuple(sorted(set(TIMER_CHOICES + TEST_TIMER_CHOICES)))
    return TIMER_CHOICES


def pause_seconds_choices() -> tuple[int, ...]:
    if settings.LUDOPAT_TEST_SEEDS:
        return tuple(sorted(set(PAUSE_SECONDS_CHOICES + TEST_PAUSE_SECONDS_CHOICES)))
    return PAUSE_SECONDS_CHOICES


def disconnect_grace() -> float:
    """Seconds a seated player may be without a connection before the bot plays their due action."""
    return float(getattr(settings, "LUDOPAT_DISCONNECT_GRACE", 5.0))


def away_delay() -> float:
    """Seconds the bot waits before playing an away (or long-disconnected) player's action."""
    return float(getattr(settings, "LUDOPAT_AWAY_DELAY", 2.0))


# --- engine state ------------------------------------------------------------------------------------

_STATES: OrderedDict[tuple[str, int, int], engine.State] = OrderedDict()
_STATES_MAX = 256


def _players(game: Game) -> list[list[str]]:
    return [list(p) for p in game.players]


def engine_state(game: Game) -> engine.State:
    """The current round's engine state, rebuilt from the Action log (kept per version in memory)."""
    key = (game.pk, game.round, game.version)
    cached = _STATES.get(key)
    if cached is not None:
        _STATES.move_to_end(key)
        return cached
    state = engine.new_game(game.ruleset, _players(game), game.options)
    rows = Action.objects.filter(
        game=game, round=game.round, kind__in=[Action.Kind.ROLL, Action.Kind.MOVE]
    ).order_by("seq")
    for row in rows.values_list("kind", "data"):
        kind, data = row
        if kind == Action.Kind.ROLL:
            state, _ = engine.roll(state, data["roll"])
        else:
            body = data["move"]
            colour, index = body["token"]
            state, _ = engine.move(state, colour, index, body.get("die"), body.get("pair", False))
    _remember(game, state)
    return state


def _remember(game: Game, state: engine.State) -> None:
    _STATES[(game.pk, game.round, game.version)] = state
    while len(_STATES) > _STATES_MAX:
        _STATES.popitem(last=False)


def seat_of_player(seats: list[Seat], colours) -> Seat:
    colours = list(colours)
    for seat in seats:
        if list(seat.colours) == colours:
            return seat
    raise LookupError(f"no seat plays {colours}")


def turn_seat(game: Game, seats: list[Seat], state: engine.State) -> Seat | None:
    if game.status != Game.Status.PLAYING or state.finished:
        return None
    return seat_of_player(seats, state.players[state.turn])


# --- seeds -------------------------------------------------------------------------------------------


def new_server_seed() -> str:
    """A fresh seed; tests (LUDOPAT_TEST_SEEDS on) may fix it with LUDOPAT_FIXED_SERVER_SEED."""
    if settings.LUDOPAT_TEST_SEEDS:
        fixed = getattr(settings, "LUDOPAT_FIXED_SERVER_SEED", "") or ""
        if re.fullmatch(r"[0-9a-f]{64}", fixed):
            return fixed
    return fair.new_server_seed()


def _reseed(game: Game) -> None:
    game.server_seed = new_server_seed()
    game.server_seed_sha256 = fair.commitment(game.server_seed)
    game.client_seed = ""
    game.nonce = 0


CLIENT_SEED_RE = re.compile(r"^[A-Za-z0-9 _.,:;!?@#$%^&*()\[\]{}+=~-]{1,64}$")


# --- writing -----------------------------------------------------------------------------------------


def lock_game(game_id: str) -> Game:
    """The game's row, locked until the transaction ends: one writer per game at a time."""
    if not isinstance(game_id, str) or not game_id:
        raise GameNotFound("There is no game at this address. Check the link you were given.")
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(
            "There is no game at this address. Check the link you were given."
        ) from None


def seats_in(game: Game) -> list[Seat]:
    """The game's seats in seat order."""
    return list(game.seats.select_related("user").order_by("index"))


def _check_version(game: Game, version: int | None) -> None:
    if version is None:
        return
    if version != game.version:
        raise StaleVersion("The board changed before your action arrived; here is the current one.")


def record_action(
    game: Game,
    kind: str,
    seat: Seat | None = None,
    data: dict | None = None,
    text: str = "",
    auto: str = "",
    deadline=None,
) -> Action:
    """Append to the action log and bump the version: every change a viewer can see does both."""
    game.version += 1
    return Action.objects.create(
        game=game,
        round=game.round,
        seq=game.version,
        seat=seat,
        kind=kind,
        data=data or {},
        text=text[:300],
        auto=auto,
        deadline=deadline,
    )


def save_game(game: Game, state: engine.State | None = None) -> None:
    """Write the game row, with the copy of the engine state kept for listing and rendering."""
    if state is not None:
        game.state = state.to_json()
        _remember(game, state)
    if game.status != Game.Status.PLAYING:
        _stop_clock(game)
    game.save()
    _after_commit(game.pk, game.version)
    schedule_deadline_on_commit(game)  # a running clock's task, for the new version


# --- the clock of timed rooms ------------------------------------------------------------------------


def is_timed(game: Game) -> bool:
    return game.mode == Game.Mode.FRIENDS and game.timer_seconds > 0


def _stop_clock(game: Game) -> None:
    """No timer runs (the game is over or untimed); a running pause ends with it."""
    if game.paused_remaining_ms is not None:
        Pause.objects.filter(game=game, ended__isnull=True).update(ended=timezone.now())
    game.deadline = game.turn_deadline = game.paused_remaining_ms = None


def act_at(game: Game, seat: Seat, now, connected: set[int] | None = None):
    """When the bot plays the acting `seat`'s action: at its own deadline, or earlier if the seat is
    away (after a short delay) or its player has had no connection for the grace period."""
    turn = game.turn_deadline or now + timedelta(seconds=game.timer_seconds)
    soon = now + timedelta(seconds=away_delay())
    if seat.is_away:
        return min(turn, soon)
    if connected is None:
        connected = presence.connected_seats(game.pk)
    if seat.pk not in connected:
        since = seat.last_seen or game.started or now
        return min(turn, max(since + timedelta(seconds=disconnect_grace()), soon))
    return turn


def arm_timer(game: Game, seats: list[Seat], state, remaining: float | None = None) -> None:
    """Set the next action's deadline (inside the action's transaction) and schedule its task on commit.

    `remaining` (seconds) restarts a clock a pause stopped; otherwise the action gets a full timer.
    """
    game.deadline = game.turn_deadline = None
    if not is_timed(game) or game.status != Game.Status.PLAYING or game.is_paused:
        return
    seat = turn_seat(game, seats, state)
    if seat is None or seat.is_bot:
        return  # a computer's turn runs on its own (schedule_bot)
    now = timezone.now()
    seconds = game.timer_seconds if remaining is None else remaining
    game.turn_deadline = now + timedelta(seconds=seconds)
    game.deadline = act_at(game, seat, now)
    schedule_deadline_on_commit(game)


def schedule_deadline_on_commit(game: Game) -> None:
    game_id, version, deadline = game.pk, game.version, game.deadline
    if deadline is None or getattr(game, "_scheduled", None) == (version, deadline):
        return
    game._scheduled = (version, deadline)
    transaction.on_commit(lambda: schedule_deadline(game_id, version, deadline))


def schedule_deadline(game_id: str, version: int, deadline) -> None:
    """The task that acts at `deadline` if the game is still at `version` (the sweeper backs it up)."""
    from .tasks import game_deadline

    try:
        game_deadline.apply_async((game_id, version), eta=deadline)
    except Exception:  # the sweeper acts on the deadline all the same
        log.exception("could not schedule the deadline of game %s", game_id)


def _after_commit(game_id: str, version: int) -> None:
    transaction.on_commit(lambda: notify(game_id, version))
    transaction.on_commit(lambda: schedule_bot(game_id, version))


def group_name(game_id: str) -> str:
    return f"game.{game_id}"


def notify(game_id: str, version: int, **extra: Any) -> None:
    """Tell every viewer of the game that version `version` exists (each renders its own board)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(game_id), {"type": "game.update", "version": version, **extra}
        )
    except Exception:  # a viewer resyncs on reconnect; the action itself is saved
        log.exception("could not notify game %s", game_id)


def schedule_bot(game_id: str, version: int) -> None:
    """If a computer is to act in this version, run its turn after a short, visible delay."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING or game.version != version:
        return
    seats = seats_in(game)
    seat = turn_seat(game, seats, engine_state(game))
    if seat is None or not seat.is_bot:
        return
    from .tasks import bot_turn

    delay = float(getattr(settings, "LUDOPAT_BOT_DELAY", 0.9))
    try:
        bot_turn.apply_async((game_id, version), countdown=delay)
    except Exception:
        log.exception("could not schedule the computer's turn in game %s", game_id)


# --- creating and joining ----------------------------------------------------------------------------

DEFAULT_COLOURS = {
    2: [["red"], ["yellow"]],
    3: [["red"], ["green"], ["yellow"]],
    4: [["red"], ["green"], ["yellow"], ["blue"]],
}


def seat_colours(ruleset: str, count: int) -> list[list[str]]:
    if ruleset == "duel":
        return [["red"], ["blue"]]
    if ruleset == "twodice":
        return [["red", "green"], ["yellow", "blue"]]
    return DEFAULT_COLOURS[count]


@dataclass
class SeatSpec:
    kind: str  # human / local / computer / open
    name: str = ""
    level: str = ""


@dataclass(frozen=True)
class TimerSpec:
    """A room's clock: seconds per action (0 = off), pauses per player and their length."""

    seconds: int = 0
    pauses: int = 2
    pause_seconds: int = 60


def create_game(
    actor: Actor,
    mode: str,
    ruleset: str,
    options: dict,
    seats: list[SeatSpec],
    timer: TimerSpec | None = None,
) -> Game:
    """A new game: computer and pass & play games start at once; a friends room waits for guests."""
    timer = timer or TimerSpec()
    if mode not in Game.Mode.values:
        raise GameError("Unknown kind of game.")
    if timer.seconds and mode != Game.Mode.FRIENDS:
        raise GameError("Timers are for rooms with friends.")
    if timer.seconds not in timer_choices():
        raise GameError("A timer is off, or 10, 15 or 30 seconds per action.")
    if timer.pauses not in PAUSE_COUNT_CHOICES:
        raise GameError("Each player may have 0 to 3 pauses.")
    if timer.pause_seconds not in pause_seconds_choices():
        raise GameError("A pause lasts 30, 60 or 120 seconds.")
    if mode == Game.Mode.FRIENDS and not actor.is_authenticated:
        raise NotAllowed("Log in to open a room for friends.")
    try:
        engine.new_game(ruleset, seat_colours(ruleset, len(seats)), options)
    except (engine.EngineError, KeyError) as error:
        raise GameError(f"Those rules can't be played: {error}") from None
    colours = seat_colours(ruleset, len(seats))
    with transaction.atomic():
        game = Game(
            mode=mode,
            ruleset=ruleset,
            options=dict(engine.new_game(ruleset, colours, options).options),
            owner_id=actor.user_id,
            owner_key=actor.key,
            players=colours,
            timer_seconds=timer.seconds,
            pauses_per_player=timer.pauses,
            pause_seconds=timer.pause_seconds,
        )
        _reseed(game)
        game.save()
        made = []
        for index, (spec, owned) in enumerate(zip(seats, colours, strict=True)):
            seat = Seat(
                game=game,
                index=index,
                colours=owned,
                kind=spec.kind,
                name=spec.name[:40],
                level=spec.level if spec.kind == Seat.Kind.COMPUTER else "",
                client_seed=secrets.token_hex(8),
            )
            if spec.kind == Seat.Kind.HUMAN:
                seat.user_id = actor.user_id
                seat.player_key = actor.key
                if actor.user_id is None:
                    seat.name = "You"
            made.append(seat)
        Seat.objects.bulk_create(made)
        record_action(game, Action.Kind.CREATE, data={"mode": mode}, text="Game created.")
        if mode == Game.Mode.FRIENDS:
            game.status = Game.Status.OPEN
            game.message = "Share the invitation link, then start when everyone is seated."
            save_game(game)
        else:
            _start(game, seats_in(game))
    return game


def _start(game: Game, seats: list[Seat]) -> None:
    state = engine.new_game(game.ruleset, _players(game), game.options)
    game.status = Game.Status.PLAYING
    game.started = timezone.now()
    first = seat_of_player(seats, state.players[0])
    game.message = f"{first.display_name} starts: roll the die."
    if game.ruleset == "twodice":
        game.message = f"{first.display_name} starts: roll the dice."
    if game.timer_seconds and sum(1 for s in seats if s.kind == Seat.Kind.HUMAN) < 2:
        game.timer_seconds = 0  # timers are for games between people
    _stop_clock(game)
    record_action(game, Action.Kind.START, text=f"Round {game.round} started.")
    arm_timer(game, seats, state)
    save_game(game, state)


def do_join(game_id: str, actor: Actor) -> Seat:
    """A guest with the link takes the first open seat of a friends room."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not actor.is_authenticated:
            raise NotAllowed("Sign up or log in to take a seat.")
        seats = seats_in(game)
        for seat in seats:
            if sits_in(seat, actor):
                return seat
        if game.mode != Game.Mode.FRIENDS:
            raise NotAllowed("This game has no seats for guests; you can watch it.")
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started; you can watch it.")
        free = [s for s in seats if s.kind == Seat.Kind.OPEN]
        if not free:
            raise Conflict("This room is full; you can watch the game.")
        seat = free[0]
        seat.kind = Seat.Kind.HUMAN
        seat.user_id = actor.user_id
        seat.player_key = actor.key
        seat.name = ""
        seat.save()
        record_action(game, Action.Kind.JOIN, seat, text=f"{actor.username} joined.")
        game.message = f"{actor.username} joined the room."
        save_game(game)
        return seat


def _host_only(game: Game, actor: Actor) -> None:
    if not owns(game, actor):
        raise NotAllowed("Only the host can do that.")


def do_set_seat(game_id: str, actor: Actor, index: int, kind: str, level: str = "") -> Seat:
    """Before the start, the host fills an open seat with a computer or opens it again."""
    with transaction.atomic():
        game = lock_game(game_id)
        _host_only(game, actor)
        if game.status != Game.Status.OPEN:
            raise Conflict("Seats can only change before the game starts.")
        seats = seats_in(game)
        seat = _seat_at(seats, index)
        if seat.kind == Seat.Kind.HUMAN:
            raise Conflict("That seat is taken by a player.")
        if kind == Seat.Kind.COMPUTER:
            seat.kind, seat.level, seat.name = Seat.Kind.COMPUTER, level or "greedy", ""
            text = f"A computer ({seat.level}) takes seat {index + 1}."
        elif kind == Seat.Kind.OPEN:
            seat.kind, seat.level = Seat.Kind.OPEN, ""
            text = f"Seat {index + 1} is open again."
        else:
            raise GameError("A seat can be given to a computer or left open.")
        seat.save()
        record_action(game, Action.Kind.SEAT, seat, {"kind": kind, "level": seat.level}, text)
        save_game(game)
        return seat


def _seat_at(seats: list[Seat], index: int) -> Seat:
    for seat in seats:
        if seat.index == index:
            return seat
    raise GameError("There is no such seat.")


def do_start(game_id: str, actor: Actor, version: int | None = None) -> Game:
    with transaction.atomic():
        game = lock_game(game_id)
        _host_only(game, actor)
        _check_version(game, version)
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started.")
        seats = seats_in(game)
        if any(s.kind == Seat.Kind.OPEN for s in seats):
            raise Conflict("Every seat needs a player or a computer before the start.")
        _start(game, seats)
        return game


def do_set_client_seed(game_id: str, actor: Actor, index: int, seed: str) -> Seat:
    """A player replaces their seat's client seed; only before the round's first roll."""
    seed = (seed or "").strip()
    if not CLIENT_SEED_RE.match(seed):
        raise GameError("A client seed is 1 to 64 letters, digits or punctuation (no '|').")
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_in(game)
        seat = _seat_at(seats, index)
        if not controls(game, seat, actor):
            raise NotAllowed("You can only set your own seat's client seed.")
        if game.nonce > 0 or game.is_over:
            raise Conflict("The client seed is fixed once the first die is rolled.")
        seat.client_seed = seed
        seat.save(update_fields=["client_seed"])
        record_action(game, Action.Kind.SEAT, seat, {"client_seed": seed}, "Client seed set.")
        save_game(game)
        return seat


# --- playing -----------------------------------------------------------------------------------------


def check_playing(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise Conflict("The game has not started yet.")
    if game.is_over:
        raise Conflict("This game is over.")


def _not_paused(game: Game) -> None:
    if game.is_paused:
        raise Conflict("The game is paused: resume it to play on.")


def _acting_seat(game: Game, seats: list[Seat], state, actor: Actor, seat_index) -> Seat:
    """The seat whose turn it is, if `actor` may play it; otherwise why not."""
    mine = seats_of(game, seats, actor)
    if not mine:
        raise NotAllowed("You are watching this game; only its players can act.")
    seat = turn_seat(game, seats, state)
    if seat is None:
        raise Conflict("This game is over.")
    if seat_index is not None:
        asked = _seat_at(seats, seat_index)
        if asked not in mine:
            raise NotAllowed("That seat is not yours.")
        if asked != seat:
            raise Conflict(f"It is {seat_label(seat)}'s turn.")
    if seat not in mine:
        raise Conflict(f"It is {seat_label(seat)}'s turn, not yours.")
    if seat.is_bot and seat.kind == Seat.Kind.COMPUTER:
        raise Conflict("The computer is playing this turn.")
    return seat


def waiting_for(game: Game, seats: list[Seat], acting: Seat | None = None) -> list[Seat]:
    """In a friends room without a timer, the seated people who are not connected now."""
    if game.mode != Game.Mode.FRIENDS or game.timer_seconds:
        return []
    here = presence.connected_seats(game.pk)
    return [
        s
        for s in seats
        if s.kind == Seat.Kind.HUMAN
        and not s.bot_controlled
        and not s.resigned
        and s != acting
        and s.pk not in here
    ]


def _everyone_here(game: Game, seats: list[Seat], acting: Seat) -> None:
    absent = waiting_for(game, seats, acting)
    if absent:
        names = ", ".join(s.display_name for s in absent)
        raise Conflict(f"Waiting for {names} to come back before play goes on.")


def _take_back(game: Game, seat: Seat) -> None:
    """A player who acts again plays their own seat again (and is no longer away)."""
    fields = []
    if seat.bot_controlled and not seat.resigned:
        seat.bot_controlled = False
        fields.append("bot_controlled")
    if seat.timeouts_in_row or seat.is_away:
        seat.timeouts_in_row, seat.is_away = 0, False
        fields += ["timeouts_in_row", "is_away"]
    if fields:
        seat.save(update_fields=fields)


def _client_seed(seats: list[Seat]) -> str:
    return fair.client_seed_for(s.client_seed for s in sorted(seats, key=lambda s: s.index))


AUTO_NOTES = {
    Action.Auto.TIMEOUT: "Time's up: the computer plays for {name}.",
    Action.Auto.AWAY: "{name} is away: the computer plays.",
    Action.Auto.ABSENT: "{name} is disconnected: the computer plays.",
}


def _apply(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    kind: str,
    data: dict,
    new_state,
    events,
    auto: str = "",
    deadline=None,
):
    game.new_round_votes = []  # an accepted roll or move cancels a pending new-round request
    text = describe(
        events, seat.display_name, lambda p: seat_of_player(seats, game.players[p]).display_name
    )
    if auto:
        text = f"{AUTO_NOTES[auto].format(name=seat.display_name)} {text}"
    game.message = text
    record_action(game, kind, seat, data, text, auto=auto, deadline=deadline)
    if new_state.finished:
        game.status = Game.Status.FINISHED
        game.finished = timezone.now()
        game.result_places = _site_places(game, seats, new_state)
        winner = _seat_at(seats, game.result_places[0])
        game.message = f"{text} {winner.display_name} wins!".strip()
    arm_timer(game, seats, new_state)
    save_game(game, new_state)


def _site_places(game: Game, seats: list[Seat], state) -> list[int]:
    """Seat indexes in finishing order; players who resigned drop to the end."""
    order = [seat_of_player(seats, state.players[p]).index for p in state.places]
    resigned = [s.index for s in seats if s.resigned]
    return [i for i in order if i not in resigned] + [i for i in order if i in resigned]


def _roll(
    game: Game, seats: list[Seat], seat: Seat, state, auto: str = "", deadline=None
) -> engine.State:
    if not engine.can_roll(state):
        raise Conflict("Move a token first: the dice are already rolled.")
    if game.nonce == 0:
        game.client_seed = _client_seed(seats)
    count = engine.ruleset(game.ruleset).DICE
    dice = fair.FairDice(game.server_seed, game.client_seed, game.nonce)
    numbers = dice.roll(count)
    game.nonce = dice.nonce
    new_state, events = engine.roll(state, numbers)
    _apply(
        game, seats, seat, Action.Kind.ROLL, {"roll": numbers}, new_state, events, auto, deadline
    )
    return new_state


def _open_turn(game_id: str, actor: Actor, version: int | None, seat_index: int | None):
    """Lock the game and check that the actor may act now, on the board it saw (in a transaction)."""
    game = lock_game(game_id)
    check_playing(game)
    _not_paused(game)
    _check_version(game, version)
    seats = seats_in(game)
    state = engine_state(game)
    seat = _acting_seat(game, seats, state, actor, seat_index)
    return game, seats, state, seat


def do_roll(game_id: str, actor: Actor, version: int | None, seat_index: int | None = None) -> Game:
    """The player to act rolls the server's fair dice (a client never sends a number)."""
    with transaction.atomic():
        game, seats, state, seat = _open_turn(game_id, actor, version, seat_index)
        _everyone_here(game, seats, seat)
        _take_back(game, seat)
        _roll(game, seats, seat, state)
        return game


def _move_data(chosen: engine.Move, die_named: bool, state) -> dict:
    body: dict[str, Any] = {"token": [chosen.colour, chosen.index]}
    if die_named or len(set(state.dice)) > 1 or chosen.die == "total":
        body["die"] = chosen.die
    if chosen.pair:
        body["pair"] = True
    return {"move": body}


def do_move(
    game_id: str,
    actor: Actor,
    version: int | None,
    colour: str,
    index: int,
    die: int | str | None = None,
    pair: bool = False,
    seat_index: int | None = None,
) -> Game:
    """The player to act moves one token with one number of the hand."""
    with transaction.atomic():
        game, seats, state, seat = _open_turn(game_id, actor, version, seat_index)
        if colour not in seat.colours:
            raise NotAllowed(f"{colour_name(colour)} is not your colour.")
        _everyone_here(game, seats, seat)
        try:
            chosen = engine.find_move(state, colour, index, die, pair)
            new_state, events = engine.apply_move(state, chosen)
        except engine.IllegalMoveError as error:
            raise Conflict(_sentence(str(error))) from None
        _take_back(game, seat)
        data = _move_data(chosen, die is not None, state)
        _apply(game, seats, seat, Action.Kind.MOVE, data, new_state, events)
        return game


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "."


def do_bot_turn(game_id: str, version: int) -> bool:
    """The computer's action for the seat to act, if the game is still at `version` (else nothing)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.version != version or game.status != Game.Status.PLAYING:
            return False
        if game.is_paused:
            return False  # the end of the pause schedules the computer again
        seats = seats_in(game)
        state = engine_state(game)
        seat = turn_seat(game, seats, state)
        if seat is None or not seat.is_bot:
            return False
        play_for(game, seats, seat, state, seat.level or "greedy")
        return True


def play_for(
    game: Game, seats: list[Seat], seat: Seat, state, level: str, auto: str = "", deadline=None
) -> None:
    """The bot's next action for `seat` (the game row is locked by the caller)."""
    rng = random.Random(f"{game.pk}:{game.round}:{game.version}")
    choice = choose_action(state, level, rng)
    if choice == ROLL_ACTION:
        _roll(game, seats, seat, state, auto, deadline)
    else:
        new_state, events = engine.apply_move(state, choice)
        data = _move_data(choice, True, state)
        _apply(game, seats, seat, Action.Kind.MOVE, data, new_state, events, auto, deadline)


# --- leaving, resigning, abandoning ------------------------------------------------------------------


def _active(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.resigned]


def _resign(game: Game, seats: list[Seat], seat: Seat) -> None:
    seat.resigned = True
    seat.bot_controlled = True
    seat.save(update_fields=["resigned", "bot_controlled"])
    others = _active(seats)
    others = [s for s in others if s != seat]
    text = f"{seat.display_name} resigned."
    if len(others) == 1:
        game.status = Game.Status.FINISHED
        game.finished = timezone.now()
        game.result_places = [others[0].index, seat.index]
        text += f" {others[0].display_name} wins!"
    else:
        text += " The computer plays on for that seat."
    game.message = text
    game.new_round_votes = []
    record_action(game, Action.Kind.RESIGN, seat, {}, text)
    save_game(game)


def do_resign(game_id: str, actor: Actor, seat_index: int | None = None) -> Game:
    """A player gives up: with one opponent left the opponent wins; otherwise a computer plays on."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_playing(game)
        seats = seats_in(game)
        mine = playing_seats(game, seats, actor, "You have no seat in this game to resign.")
        if seat_index is not None:
            chosen = [s for s in mine if s.index == seat_index]
            if not chosen:
                raise NotAllowed("That seat is not yours.")
            seat = chosen[0]
        else:
            state = engine_state(game)
            current = turn_seat(game, seats, state)
            seat = current if current in mine else mine[0]
        _resign(game, seats, seat)
        return game


def do_leave(game_id: str, actor: Actor) -> Game:
    """Leave a room: a guest before the start frees the seat; the host closes the room; in play, resign."""
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_in(game)
        mine = [s for s in seats_of(game, seats, actor) if not s.resigned]
        if game.is_over:
            raise Conflict("This game is over.")
        if game.status == Game.Status.OPEN:
            if owns(game, actor):
                return _abandon(game, "The host closed the room.")
            if not mine:
                raise NotAllowed("You have no seat in this room.")
            seat = mine[0]
            name = seat.display_name
            seat.kind, seat.user_id, seat.player_key, seat.name = Seat.Kind.OPEN, None, "", ""
            seat.save()
            game.message = f"{name} left the room."
            record_action(game, Action.Kind.LEAVE, seat, {}, game.message)
            save_game(game)
            return game
        if not mine:
            raise NotAllowed("You have no seat in this game.")
        if game.mode != Game.Mode.FRIENDS:
            return _abandon(game, "The game was abandoned.")
        _resign(game, seats, mine[0])
        return game


def _abandon(game: Game, text: str) -> Game:
    game.status = Game.Status.ABANDONED
    game.finished = timezone.now()
    game.message = text
    game.new_round_votes = []
    record_action(game, Action.Kind.ABANDON, None, {}, text)
    save_game(game)
    return game


def do_abandon(game_id: str, actor: Actor) -> Game:
    """Drop a game from "Continue": your own computer or pass & play game ends; in a room you resign."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.is_over:
            raise Conflict("This game is already over.")
        seats = seats_in(game)
        if game.mode != Game.Mode.FRIENDS:
            if not owns(game, actor):
                raise NotAllowed("Only the person who started this game can abandon it.")
            return _abandon(game, "The game was abandoned.")
        if game.status == Game.Status.OPEN and owns(game, actor):
            return _abandon(game, "The host closed the room.")
        mine = playing_seats(game, seats, actor, "You have no seat in this game.")
        if game.status == Game.Status.OPEN:
            seat = mine[0]
            seat.kind, seat.user_id, seat.player_key, seat.name = Seat.Kind.OPEN, None, "", ""
            seat.save()
            game.message = "A guest left the room."
            record_action(game, Action.Kind.LEAVE, seat, {}, game.message)
            save_game(game)
            return game
        _resign(game, seats, mine[0])
        return game


# --- absent players ----------------------------------------------------------------------------------


def absent_since(game: Game, seat: Seat, connected: set[int]):
    """Since when a seated player has been away (never connected: since the start)."""
    if seat.pk in connected:
        return None
    return seat.last_seen or game.started


def can_hand_over(game: Game, seat: Seat, connected: set[int], now=None) -> bool:
    if game.mode != Game.Mode.FRIENDS or game.status != Game.Status.PLAYING:
        return False
    if seat.kind != Seat.Kind.HUMAN or seat.bot_controlled or seat.resigned:
        return False
    since = absent_since(game, seat, connected)
    now = now or timezone.now()
    return since is not None and now - since >= timedelta(seconds=ABSENT_HANDOVER_SECONDS)


def do_replace_absent(game_id: str, actor: Actor, seat_index: int) -> Seat:
    """After two minutes of waiting, another player hands an absent seat to the computer."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_playing(game)
        seats = seats_in(game)
        mine = playing_seats(game, seats, actor, "Only the players of this game can do that.")
        seat = _seat_at(seats, seat_index)
        if seat in mine:
            raise Conflict("That is your own seat.")
        connected = presence.connected_seats(game.pk)
        if not can_hand_over(game, seat, connected):
            raise Conflict(
                f"{seat.display_name} can be handed to the computer after two minutes away."
            )
        seat.bot_controlled = True
        seat.save(update_fields=["bot_controlled"])
        text = f"The computer plays for {seat.display_name} until they come back."
        game.message = text
        record_action(game, Action.Kind.TAKEOVER, seat, {"bot": True}, text)
        save_game(game)
        return seat


def seat_connected(game_id: str, seat_id: int) -> bool:
    """A seated player connected: their seat comes back from the computer (unless they resigned), and
    in a timed room an action of theirs that the grace period brought forward gets its own time back."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        seat = Seat.objects.filter(pk=seat_id, game=game).first()
        if seat is not None:
            _restore_deadline(game, seat)
        if seat is None or not seat.bot_controlled or seat.resigned or game.is_over:
            return False
        seat.bot_controlled = False
        seat.save(update_fields=["bot_controlled"])
        text = f"{seat.display_name} is back and plays again."
        game.message = text
        record_action(game, Action.Kind.TAKEOVER, seat, {"bot": False}, text)
        save_game(game)
        return True


def seat_disconnected(seat_ids: list[int], game_id: str | None = None) -> None:
    """The last connection of these seats closed: remember when; in a timed room, if one of them is to
    act, the bot plays for it once the grace period is over."""
    now = timezone.now()
    Seat.objects.filter(pk__in=seat_ids).update(last_seen=now)
    if game_id is None:
        return
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not _clock_runs(game):
            return
        seats = seats_in(game)
        seat = turn_seat(game, seats, engine_state(game))
        if seat is None or seat.pk not in seat_ids or seat.is_bot:
            return
        sooner = act_at(game, seat, now, connected=presence.connected_seats(game.pk))
        if game.deadline is None or sooner < game.deadline:
            game.deadline = sooner
            game.save(update_fields=["deadline"])
            schedule_deadline_on_commit(game)


def _clock_runs(game: Game) -> bool:
    return (
        is_timed(game)
        and game.status == Game.Status.PLAYING
        and not game.is_paused
        and game.turn_deadline is not None
    )


def _restore_deadline(game: Game, seat: Seat) -> None:
    """A player back online before the bot played for them: their action's own deadline again."""
    if not _clock_runs(game) or seat.is_away:
        return
    current = turn_seat(game, seats_in(game), engine_state(game))
    if current is None or current.pk != seat.pk or current.is_bot:
        return
    if game.deadline is not None and game.deadline < game.turn_deadline:
        game.deadline = max(game.turn_deadline, timezone.now())
        game.save(update_fields=["deadline"])
        schedule_deadline_on_commit(game)


# --- new rounds --------------------------------------------------------------------------------------


def _humans(seats: list[Seat]) -> list[Seat]:
    """The people whose agreement a new round needs (a resigned player still decides on a rematch;
    an absent one whose seat the computer holds does not hold the others up)."""
    return [s for s in seats if s.kind == Seat.Kind.HUMAN and (s.resigned or not s.bot_controlled)]


def do_new_round(game_id: str, actor: Actor) -> Game:
    """Ask for (or agree to) a new round; it starts once every human player has agreed.

    A computer or pass & play game, or a room no guest has joined, resets at once.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status == Game.Status.OPEN:
            raise Conflict("The game has not started yet.")
        if game.status == Game.Status.ABANDONED:
            raise Conflict("This game was abandoned.")
        seats = seats_in(game)
        mine = seats_of(game, seats, actor)
        if not mine:
            raise NotAllowed("Only the players of this game can start a new round.")
        humans = _humans(seats)
        alone = game.mode != Game.Mode.FRIENDS or all(sits_in(s, actor) for s in humans)
        if alone:
            _new_round(game, seats)
            return game
        votes = set(game.new_round_votes) | {s.index for s in mine if s in humans}
        needed = {s.index for s in humans}
        if needed <= votes:
            _new_round(game, seats)
            return game
        game.new_round_votes = sorted(votes)
        waiting = [s.display_name for s in humans if s.index not in votes]
        asker = mine[0].display_name
        word = "Play again" if game.is_over else "A new round"
        game.message = f"{asker} asks for a new round. Waiting for {', '.join(waiting)}."
        record_action(
            game, Action.Kind.NEW_ROUND, mine[0], {"vote": True}, f"{word}? {asker} agrees."
        )
        save_game(game)
        return game


def _new_round(game: Game, seats: list[Seat]) -> None:
    places = game.result_places if game.status == Game.Status.FINISHED else []
    Round.objects.create(
        game=game,
        number=game.round,
        players=game.players,
        server_seed=game.server_seed,
        client_seed=game.client_seed or _client_seed(seats),
        places=places,
    )
    players = _players(game)
    if game.ruleset != "duel":
        last_first = players[0]
        players = players[1:] + [last_first]
    game.round += 1
    game.players = players
    _reseed(game)
    game.result_places = []
    game.new_round_votes = []
    game.finished = None
    for seat in seats:
        if seat.resigned:
            seat.resigned = False  # the computer keeps the seat until its player acts again
            seat.save(update_fields=["resigned"])
    record_action(game, Action.Kind.NEW_ROUND, None, {"round": game.round}, f"Round {game.round}.")
    _start(game, seats)


# --- reading -----------------------------------------------------------------------------------------


def unfinished_games(actor: Actor, limit: int = 12) -> list[Game]:
    """The actor's games that can be continued: owned local games and seats in friends rooms."""
    from django.db.models import Q

    live = [Game.Status.OPEN, Game.Status.PLAYING]
    owned = Q(owner_key=actor.key) if actor.key else Q(pk__in=[])
    if actor.user_id is not None:
        owned |= Q(owner_id=actor.user_id)
        seated = Q(seats__user_id=actor.user_id, seats__kind=Seat.Kind.HUMAN, seats__resigned=False)
    else:
        seated = Q(
            seats__player_key=actor.key,
            seats__user__isnull=True,
            seats__kind=Seat.Kind.HUMAN,
            seats__resigned=False,
        )
    found = Game.objects.filter(status__in=live).filter(owned | seated).distinct()
    return list(found.order_by("-updated")[:limit])
