"""Opening a game: creating it, guests joining a room, the host filling seats, the start of a round."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .. import engine
from ..core import presence
from ..core.actors import Actor, controls, owns, refuse_banned, sits_in
from ..core.errors import Conflict, GameError, NotAllowed
from ..core.narration import user_ref, who
from ..core.round_start_handlers import run_start_handlers
from ..models import Action, Game, Seat
from .clock import PAUSE_COUNT_CHOICES, arm_timer, pause_seconds_choices, stop_clock, timer_choices
from .core import CLIENT_SEED_RE, check_version, lock_game, record_action, reseed, save_game
from .state import players_of, seat_of_player, seats_in


def seat_colours(ruleset: str, count: int) -> list[list[str]]:
    """Each seat's colours as Game.players stores them; the rule set decides (EngineError if it can't
    seat `count`)."""
    return [list(colours) for colours in engine.seat_colours(ruleset, count)]


# The new room's message line: words for its host (the page tells a guest what they wait for instead).
INVITE_HINT = "Share the invitation link, then start when everyone is seated."


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
        reseed(game)
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
            game.message = INVITE_HINT
            save_game(game)
        else:
            start_round(game, seats_in(game))
    return game


def start_round(game: Game, seats: list[Seat]) -> None:
    state = engine.new_game(game.ruleset, players_of(game), game.options)
    game.status = Game.Status.PLAYING
    game.started = timezone.now()
    first = seat_of_player(seats, state.players[0])
    game.message = f"{who(first)} starts: roll the die."
    if game.ruleset == "twodice":
        game.message = f"{who(first)} starts: roll the dice."
    if game.timer_seconds and sum(1 for s in seats if s.kind == Seat.Kind.HUMAN) < 2:
        game.timer_seconds = 0  # timers are for games between people
    stop_clock(game)
    record_action(game, Action.Kind.START, text=f"Round {game.round} started.")
    run_start_handlers(game, seats)  # the players' ratings on their seats (leaderboard)
    arm_timer(game, seats, state)
    save_game(game, state)


def do_join(game_id: str, actor: Actor) -> Seat:
    """A guest with the link takes the first open seat of a friends room."""
    with transaction.atomic():
        game = lock_game(game_id)
        if actor.user_id is None:  # not logged in
            raise NotAllowed("Sign up or log in to take a seat.")
        seats = seats_in(game)
        refuse_banned(game, seats, actor)  # the joining account's own row, read under the lock
        for seat in seats:
            if sits_in(seat, actor):
                return seat
        if game.mode != Game.Mode.FRIENDS:
            raise NotAllowed("This game has no seats for guests; you can watch it.")
        if game.stake:  # its seat is taken with the stake (games.staking.rooms.do_join_staked_room)
            raise Conflict(f"This room is played for {game.stake:,} coins: join it with its stake.")
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
        presence.seated(game.pk, [seat.pk])
        record_action(game, Action.Kind.JOIN, seat, text=f"{user_ref(actor.user_id)} joined.")
        game.message = f"{user_ref(actor.user_id)} joined the room."
        save_game(game)
        return seat


def host_only(game: Game, actor: Actor) -> None:
    if not owns(game, actor):
        raise NotAllowed("Only the host can do that.")


def do_set_seat(game_id: str, actor: Actor, index: int, kind: str, level: str = "") -> Seat:
    """Before the start, the host fills an open seat with a computer or opens it again."""
    with transaction.atomic():
        game = lock_game(game_id)
        host_only(game, actor)
        if game.status != Game.Status.OPEN:
            raise Conflict("Seats can only change before the game starts.")
        if game.stake:
            raise Conflict("A staked room's second seat is for a player who stakes the same coins.")
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        seat = seat_at(seats, index)
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


def seat_at(seats: list[Seat], index: int) -> Seat:
    for seat in seats:
        if seat.index == index:
            return seat
    raise GameError("There is no such seat.")


def do_start(game_id: str, actor: Actor, version: int | None = None) -> Game:
    with transaction.atomic():
        game = lock_game(game_id)
        host_only(game, actor)
        check_version(game, version)
        if game.status != Game.Status.OPEN:
            raise Conflict("This game has already started.")
        if game.stake:
            raise Conflict("A staked room starts when an opponent joins with their stake.")
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        if any(s.kind == Seat.Kind.OPEN for s in seats):
            raise Conflict("Every seat needs a player or a computer before the start.")
        start_round(game, seats)
        return game


def do_set_client_seed(game_id: str, actor: Actor, index: int, seed: str) -> Seat:
    """A player replaces their seat's client seed; only before the round's first roll."""
    seed = (seed or "").strip()
    if not CLIENT_SEED_RE.match(seed):
        raise GameError("A client seed is 1 to 64 letters, digits or punctuation (no '|').")
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        seat = seat_at(seats, index)
        if not controls(game, seat, actor):
            raise NotAllowed("You can only set your own seat's client seed.")
        if game.nonce > 0 or game.is_over:
            raise Conflict("The client seed is fixed once the first die is rolled.")
        seat.client_seed = seed
        seat.save(update_fields=["client_seed"])
        record_action(game, Action.Kind.SEAT, seat, {"client_seed": seed}, "Client seed set.")
        save_game(game)
        return seat
