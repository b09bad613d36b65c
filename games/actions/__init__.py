"""Every change to a game: one `do_*` function per player or system action, one module per concern.

Each runs in one transaction holding a row lock on the Game (`select_for_update`; SQLite takes its write
lock when the transaction starts), checks who acts, whose turn it is and the version the player saw,
writes the Action log entry and the new state, bumps `version`, and only after the commit tells the game's
viewers (games.core.broadcast) and queues the system's next action (a computer's turn, a deadline). Any process
may call these: a web view for a click, the consumer for a `ws-send`, a Celery worker for a bot turn.

    state     the seats and the engine state an action starts from, whose turn it is
    clock     timer choices, deadlines, the computer's backup deadline, queueing their tasks
    core      seeds, lock / check / record / save and telling the viewers on commit
    setup     creating games, joining rooms, seats, the start of a round
    turns     rolls and moves, the computer's turns
    rounds    end_round (the one call that ends a round) and new rounds
    leaving   resigning, leaving, abandoning
    absence   connections and absent players
    timers    deadlines and the sweeper; "I'm back"
    pauses    pauses in timed games
    chat      the chat of games between people
    idle      closing games nobody finishes

Errors are GameError subclasses (games.core.errors) carrying the HTTP status a view should answer with and a
sentence a player can read; nothing is written when one is raised. Modules import one another only
downwards (state <- clock <- core <- setup <- rounds <- turns <- timers), and tasks are queued by name,
so there is no import circle. Reads that write nothing (what pages show) are games.core.selectors.
"""

from __future__ import annotations

from ..core.actors import Actor
from .absence import (
    ABSENT_HANDOVER_SECONDS,
    can_hand_over,
    do_replace_absent,
    seat_connected,
    seat_disconnected,
)
from .clock import is_timed, timer_choices
from .core import lock_game
from .leaving import do_abandon, do_leave, do_resign
from .rounds import do_new_round, end_round, finish_round
from .setup import (
    SeatSpec,
    TimerSpec,
    create_game,
    do_join,
    do_set_client_seed,
    do_set_seat,
    do_start,
    seat_colours,
)
from .state import engine_state, seat_of_player, seats_in, turn_seat
from .turns import do_bot_turn, do_move, do_roll, waiting_for

__all__ = [
    "ABSENT_HANDOVER_SECONDS",
    "Actor",
    "SeatSpec",
    "TimerSpec",
    "can_hand_over",
    "create_game",
    "do_abandon",
    "do_bot_turn",
    "do_join",
    "do_leave",
    "do_move",
    "do_new_round",
    "do_replace_absent",
    "do_resign",
    "do_roll",
    "do_set_client_seed",
    "do_set_seat",
    "do_start",
    "end_round",
    "engine_state",
    "finish_round",
    "is_timed",
    "lock_game",
    "seat_colours",
    "seat_connected",
    "seat_disconnected",
    "seat_of_player",
    "seats_in",
    "timer_choices",
    "turn_seat",
    "waiting_for",
]
