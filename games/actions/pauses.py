"""Pauses in timed games between people: each player has a few per round, each of limited length.

A pause keeps the acting seat's time left (`Game.paused_remaining_ms`), stops the clock, opens the chat
for everyone at the table, and ends when any player resumes or its time is up (the game's `deadline` is
then the pause's end: its task and the sweeper end it, see games.timers).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ..core import selectors
from ..core.actors import Actor, playing_seats, refuse_banned
from ..core.errors import Conflict
from ..core.narration import who
from ..models import Action, Game, Pause, Seat
from . import clock, core
from .state import engine_state, seats_in


def people_game(game: Game, seats: list[Seat]) -> bool:
    """A room where at least two people play (chat and pauses exist only there)."""
    return (
        game.mode == Game.Mode.FRIENDS and sum(1 for s in seats if s.kind == Seat.Kind.HUMAN) >= 2
    )


def _my_seat(game: Game, seats: list[Seat], actor: Actor) -> Seat:
    refuse_banned(game, seats, actor)  # under the game's lock: both callers hold it
    mine = playing_seats(game, seats, actor, "Only the players of this game can do that.")
    return mine[0]


def do_pause(game_id: str, actor: Actor) -> Pause:
    """Stop the clock and open the chat, if the player has a pause left."""
    with transaction.atomic():
        game = core.lock_game(game_id)
        if game.is_over:
            raise Conflict("This game is over: there is nothing to pause.")
        core.check_playing(game)
        seats = seats_in(game)
        seat = _my_seat(game, seats, actor)
        if not clock.is_timed(game) or not people_game(game, seats):
            raise Conflict("Pauses are for timed games between people.")
        if game.is_paused:
            raise Conflict("The game is already paused.")
        used = selectors.pauses_used(game, seat)
        if used >= game.pauses_per_player:
            raise Conflict(
                f"You have no pause left ({game.pauses_per_player} per game)."
                if game.pauses_per_player
                else "This room has no pauses."
            )
        now = timezone.now()
        remaining = game.timer_seconds * 1000
        if game.turn_deadline is not None:
            remaining = max(0, int((game.turn_deadline - now).total_seconds() * 1000))
        ends = now + timedelta(seconds=game.pause_seconds)
        pause = Pause.objects.create(
            game=game, round=game.round, seat=seat, ends=ends, remaining_ms=remaining
        )
        game.paused_remaining_ms = remaining
        game.turn_deadline = None
        game.deadline = ends
        left = game.pauses_per_player - used - 1
        text = (
            f"{who(seat)} paused the game ({left} pause{'s' if left != 1 else ''} left). "
            "The chat is open."
        )
        game.message = text
        core.record_action(game, Action.Kind.PAUSE, seat, {"remaining_ms": remaining}, text)
        core.save_game(game, engine_state(game))
        return pause


def do_resume(game_id: str, actor: Actor) -> Game:
    """Any player ends the pause: the clock runs on with the time that was left."""
    with transaction.atomic():
        game = core.lock_game(game_id)
        core.check_playing(game)
        seats = seats_in(game)
        seat = _my_seat(game, seats, actor)
        if not game.is_paused:
            raise Conflict("The game is not paused.")
        end_pause(game, seat, seats)
        return game


def end_pause(game: Game, seat: Seat | None, seats: list[Seat] | None = None) -> None:
    """End the running pause (the game row is locked): resumed by `seat`, or run out (None)."""
    seats = seats if seats is not None else seats_in(game)
    now = timezone.now()
    pause = selectors.current_pause(game)
    remaining = (game.paused_remaining_ms or 0) / 1000
    if pause is not None:
        pause.ended, pause.ended_by = now, seat
        pause.save(update_fields=["ended", "ended_by"])
    game.paused_remaining_ms = None
    text = f"{who(seat)} resumed the game." if seat else "The pause is over."
    game.message = text
    core.record_action(game, Action.Kind.RESUME, seat, {}, text)
    state = engine_state(game)
    clock.arm_timer(game, seats, state, remaining=remaining)
    core.save_game(game, state)
