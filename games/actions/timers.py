"""Timed rooms: what happens when a deadline passes, and an away player coming back.

A game's `deadline` is when the system acts next: the bot plays the acting seat's roll or move (its time
ran out, it is away, or its player has been disconnected past the grace period), or a pause runs out.
Two things call `do_deadline`: the task scheduled at the deadline with the version it was set for, and
the sweeper (Celery beat, every ~2 s) for any deadline already past (a task lost with its worker). Both
lock the game row and re-check the version and the deadline before acting, so a late, repeated or
duplicated call does nothing.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from ludopat import metrics

from ..core import presence
from ..core.actors import Actor, playing_seats, refuse_banned
from ..core.errors import Conflict
from ..core.narration import who
from ..models import Action, Game, Seat
from . import absence, clock, core, pauses
from .state import engine_state, seats_in, turn_seat
from .turns import play_computer_turn, play_for

log = logging.getLogger(__name__)

BOT_LEVEL = "strong"  # the bot that plays for people in timed rooms


def do_deadline(game_id: str, *, version: int | None = None) -> bool:
    """Act on the game's deadline if it has passed (and, for a task, the game is still at `version`).

    True if something happened (the bot played or a pause ended).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.deadline is None:
            return False
        if version is not None and game.version != version:
            return False
        now = timezone.now()
        if game.deadline > now:
            # Never before the deadline. A task that came early (clock skew, eta rounding) comes
            # back at the deadline; one whose deadline moved later finds a newer version then.
            if version is not None:
                game_id, deadline = game.pk, game.deadline
                transaction.on_commit(lambda: clock.schedule_deadline(game_id, version, deadline))
            return False
        metrics.deadline_acted(deadline=game.deadline, now=now, swept=version is None)
        if game.status != Game.Status.PLAYING:
            return _disarm(game)
        if game.is_paused:
            pauses.end_pause(game, None)
            return True
        seats = seats_in(game)
        state = engine_state(game)
        seat = turn_seat(game, seats, state)
        if seat is None:
            return _disarm(game)
        if seat.is_bot:  # a computer's turn whose task was lost or failed, in any kind of game
            return play_computer_turn(game.pk, game.version, level=None)
        if not clock.is_timed(game):
            return _disarm(game)
        deadline = game.deadline
        timed_out = game.turn_deadline is None or now >= game.turn_deadline
        if seat.is_away:
            auto = Action.Auto.AWAY
        elif timed_out:
            auto = Action.Auto.TIMEOUT
            seat.timeouts_in_row += 1
            fields = ["timeouts_in_row"]
            if seat.timeouts_in_row >= clock.AWAY_AFTER_TIMEOUTS:
                seat.is_away = True
                fields.append("is_away")
            seat.save(update_fields=fields)
            if absence.everyone_away(game, seats):  # a staked game nobody plays: void, stakes back
                absence.void_for_absence(game, seats)
                return True
        else:
            connected = presence.connected_seats(game.pk)
            if seat.pk in connected:  # back online before the grace ran out
                game.deadline = clock.act_at(game, seat, now, connected)
                game.save(update_fields=["deadline"])
                clock.schedule_deadline_on_commit(game)
                return False
            auto = Action.Auto.ABSENT
            if game.in_tournament:  # a bracket waits for nobody: the computer holds the seat
                absence.hand_to_computer(game, seat)
        play_for(game, seats, seat, state, BOT_LEVEL, auto=auto, deadline=deadline)
        return True


def _disarm(game: Game) -> bool:
    game.deadline = game.turn_deadline = None
    game.save(update_fields=["deadline", "turn_deadline"])
    return False


def due_games(limit: int = 500) -> list[str]:
    """Ids of games whose deadline has passed (the index on `deadline` serves this)."""
    now = timezone.now()
    return list(
        Game.objects.filter(deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )


def sweep() -> int:
    """Act on every deadline already past, and void the staked games nobody is at; the number of
    games where a deadline did something. (The beat task adds the sweeps of the layers above:
    games.tasks.sweep_deadlines.)"""
    done = 0
    due = due_games()
    metrics.SWEEP_BACKLOG.set(len(due))
    for game_id in due:
        try:
            done += do_deadline(game_id)
        except Exception:  # one broken game must not stop the others' timers
            log.exception("deadline of game %s failed", game_id)
    try:  # staked games both players have left are voided and refunded
        absence.void_deserted_games()
    except Exception:
        log.exception("voiding deserted staked games failed")
    return done


def do_back(game_id: str, actor: Actor) -> Seat:
    """An away player says "I'm back": the bot stops playing for them; a due action gets a full timer."""
    with transaction.atomic():
        game = core.lock_game(game_id)
        core.check_playing(game)
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        mine = playing_seats(game, seats, actor, "You have no seat in this game.")
        away = [s for s in mine if s.is_away]
        if not away:
            raise Conflict("You are not away: play on.")
        for seat in away:
            seat.is_away, seat.timeouts_in_row = False, 0
            seat.save(update_fields=["is_away", "timeouts_in_row"])
        seat = away[0]
        text = f"{who(seat)} is back."
        game.message = text
        core.record_action(game, Action.Kind.BACK, seat, {}, text)
        state = engine_state(game)
        turn = turn_seat(game, seats, state)
        if not game.is_paused and turn in away:
            clock.arm_timer(game, seats, state)  # their due action: a full timer again
        core.save_game(game, state)
        return seat
