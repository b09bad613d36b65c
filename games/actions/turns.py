"""Playing: rolls and moves by people, and the computer's turns (its own seats, or a person's that the
computer holds)."""

from __future__ import annotations

import logging
import random
from collections.abc import Collection
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F

from .. import engine
from ..core import presence
from ..core.actors import Actor, refuse_banned, seats_of
from ..core.errors import Conflict, NotAllowed
from ..core.narration import colour_name, describe, seat_label, who
from ..core.round_ends import RoundEnd
from ..core.token_home_handlers import run_home_handlers
from ..engine import fair
from ..engine.bots import choose_action
from ..models import Action, Game, Seat
from .clock import arm_timer
from .core import (
    check_playing,
    check_version,
    client_seed,
    keep_rows_on_commit,
    keep_step_on_commit,
    lock_game_with_seats,
    record_action,
    save_game,
)
from .rounds import end_round, gave_up_last
from .setup import seat_at
from .state import engine_state, seat_of_player, seats_in, turn_seat

log = logging.getLogger(__name__)

BOT_TRIES = (
    3  # failures of the computer's turn at one version before it plays a random legal action
)


def not_paused(game: Game) -> None:
    if game.is_paused:
        raise Conflict("The game is paused: resume it to play on.")


def acting_seat(
    game: Game, seats: list[Seat], state: engine.State, actor: Actor, seat_index: int | None
) -> Seat:
    """The seat whose turn it is, if `actor` may play it; otherwise why not."""
    mine = seats_of(game, seats, actor)
    if not mine:
        raise NotAllowed("You are watching this game; only its players can act.")
    seat = turn_seat(game, seats, state)
    if seat is None:
        raise Conflict("This game is over.")
    if seat_index is not None:
        asked = seat_at(seats, seat_index)
        if asked not in mine:
            raise NotAllowed("That seat is not yours.")
        if asked != seat:
            raise Conflict(f"It is {seat_label(seat)}'s turn.")
    if seat not in mine:
        raise Conflict(f"It is {seat_label(seat)}'s turn, not yours.")
    if seat.is_bot and seat.kind == Seat.Kind.COMPUTER:
        raise Conflict("The computer is playing this turn.")
    return seat


def waiting_for(
    game: Game, seats: list[Seat], acting: Seat | None = None, here: Collection[int] | None = None
) -> list[Seat]:
    """In a friends room without a timer, the seated people who are not connected now (`here`: the
    connected seats, where the caller has read them already)."""
    if game.mode != Game.Mode.FRIENDS or game.timer_seconds:
        return []
    if here is None:
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


def everyone_here(game: Game, seats: list[Seat], acting: Seat) -> None:
    absent = waiting_for(game, seats, acting)
    if absent:
        names = ", ".join(s.display_name for s in absent)
        raise Conflict(f"Waiting for {names} to come back before play goes on.")


def take_back(game: Game, seat: Seat) -> None:
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


AUTO_NOTES: dict[str, str] = {
    Action.Auto.TIMEOUT: "Time's up: the computer plays for {name}.",
    Action.Auto.AWAY: "{name} is away: the computer plays.",
    Action.Auto.ABSENT: "{name} is disconnected: the computer plays.",
}


# A token reaching home, or (two dice) a killer leaving the board for home with its kill.
HOME_EVENTS = ("home", "killed")


def _apply(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    kind: str,
    data: dict,
    new_state: engine.State,
    events: list[engine.Event],
    auto: str = "",
    deadline: datetime | None = None,
) -> None:
    game.new_round_votes = []  # an accepted roll or move cancels a pending new-round request
    text = describe(events, who(seat), lambda p: who(seat_of_player(seats, game.players[p])))
    if auto in AUTO_NOTES:
        text = f"{AUTO_NOTES[auto].format(name=who(seat))} {text}"
    game.message = text
    if new_state.finished:
        places = _site_places(game, seats, new_state)
        end_round(
            game,
            seats,
            places=places,
            how=RoundEnd.WON,
            action=kind,
            seat=seat,
            data=data,
            text=text,
            auto=auto,
            deadline=deadline,
            message=f"{text} {who(seat_at(seats, places[0]))} wins!".strip(),
            state=new_state,
        )
        return
    keep_step_on_commit(record_action(game, kind, seat, data, text, auto=auto, deadline=deadline))
    arm_timer(game, seats, new_state)
    if any(event.kind in HOME_EVENTS for event in events):
        run_home_handlers(game, new_state)
    # Not for a round's end (above): its handlers, of the layers above, may write rows these objects
    # don't hold, so the renders of that version read it afresh.
    keep_rows_on_commit(game, seats)
    save_game(game, new_state, seats)


def _site_places(game: Game, seats: list[Seat], state: engine.State) -> list[int]:
    """Seat indexes in finishing order; players who resigned drop to the end, the first to resign
    last, wherever the computer brought their tokens."""
    order = [seat_of_player(seats, state.players[p]).index for p in state.places]
    return gave_up_last(game, seats, order=order)


def _roll(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    state: engine.State,
    auto: str = "",
    deadline: datetime | None = None,
) -> engine.State:
    if not engine.can_roll(state):
        raise Conflict("Move a token first: the dice are already rolled.")
    if game.nonce == 0:
        game.client_seed = client_seed(seats)
    count = engine.ruleset(game.ruleset).DICE
    dice = fair.FairDice(game.server_seed, game.client_seed, game.nonce)
    numbers = dice.roll(count)
    game.nonce = dice.nonce
    new_state, events = engine.roll(state, numbers)
    _apply(
        game, seats, seat, Action.Kind.ROLL, {"roll": numbers}, new_state, events, auto, deadline
    )
    return new_state


def open_turn(
    game_id: str, actor: Actor, version: int | None, seat_index: int | None
) -> tuple[Game, list[Seat], engine.State, Seat]:
    """Lock the game and check that the actor may act now, on the board it saw (in a transaction)."""
    game, seats = lock_game_with_seats(game_id)
    refuse_banned(game, seats, actor)  # before the rest: a banned player learns why, not "stale"
    check_playing(game)
    not_paused(game)
    check_version(game, version)
    state = engine_state(game)
    seat = acting_seat(game, seats, state, actor, seat_index)
    return game, seats, state, seat


def do_roll(game_id: str, actor: Actor, version: int | None, seat_index: int | None = None) -> Game:
    """The player to act rolls the server's fair dice (a client never sends a number)."""
    with transaction.atomic():
        game, seats, state, seat = open_turn(game_id, actor, version, seat_index)
        everyone_here(game, seats, seat)
        take_back(game, seat)
        _roll(game, seats, seat, state)
        return game


def _move_data(chosen: engine.Move, die_named: bool, state: engine.State) -> dict:
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
        game, seats, state, seat = open_turn(game_id, actor, version, seat_index)
        if colour not in seat.colours:
            raise NotAllowed(f"{colour_name(colour)} is not your colour.")
        everyone_here(game, seats, seat)
        try:
            chosen = engine.find_move(state, colour, index, die, pair)
            new_state, events = engine.apply_move(state, chosen)
        except engine.IllegalMoveError as error:
            raise Conflict(_sentence(str(error))) from None
        take_back(game, seat)
        data = _move_data(chosen, die is not None, state)
        _apply(game, seats, seat, Action.Kind.MOVE, data, new_state, events)
        return game


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "."


def do_bot_turn(game_id: str, version: int) -> bool:
    """The computer's action for the seat to act, if the game is still at `version` (else nothing)."""
    return play_computer_turn(game_id, version, level=None)


def play_computer_turn(game_id: str, version: int, level: str | None) -> bool:
    """Play the computer's action for the seat to act (a computer seat, or a person's seat it holds)
    if the game is still at `version`. A bot that raises is counted; the backup deadline brings it
    back, and after BOT_TRIES failures at one version it plays a random legal action instead, so a
    broken bot never stalls a game. The row lock and the version make a second action impossible."""
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            if game is None or game.status != Game.Status.PLAYING or game.is_paused:
                return False  # the end of a pause brings the computer back
            if game.version != version:
                return False
            seats = seats_in(game)
            state = engine_state(game)
            seat = turn_seat(game, seats, state)
            if seat is None or not seat.is_bot:
                return False
            chosen = level or seat.level or "greedy"
            if game.bot_failures >= BOT_TRIES:
                chosen = "random"
            # A person's seat the computer holds: its actions are marked as the computer's, so
            # nothing counts them as the player's own (the new-player stake cap).
            auto = Action.Auto.STAND_IN if seat.kind == Seat.Kind.HUMAN else ""
            play_for(game, seats, seat, state, chosen, auto=auto)
            return True
    except Exception:
        log.exception("the computer's turn failed in game %s at version %s", game_id, version)
        Game.objects.filter(pk=game_id, version=version).update(bot_failures=F("bot_failures") + 1)
        return False


def stand_in_level(game: Game, seat: Seat, level: str) -> str:
    """The computer playing for an absent or timed-out person in a staked game (or a tournament's
    match, played for its prizes) plays at the easy level: stepping away must never play better than
    the player would."""
    if (game.stake or game.in_tournament) and seat.kind == Seat.Kind.HUMAN:
        return "random"
    return level


def play_for(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    state: engine.State,
    level: str,
    auto: str = "",
    deadline: datetime | None = None,
) -> None:
    """The bot's next action for `seat` (the game row is locked by the caller)."""
    level = stand_in_level(game, seat, level)
    rng = random.Random(f"{game.pk}:{game.round}:{game.version}")  # noqa: S311  the bot's choice, not a die
    choice = choose_action(state, level, rng)
    if isinstance(choice, str):  # ROLL_ACTION, the only word it answers
        _roll(game, seats, seat, state, auto, deadline)
    else:
        new_state, events = engine.apply_move(state, choice)
        data = _move_data(choice, True, state)
        _apply(game, seats, seat, Action.Kind.MOVE, data, new_state, events, auto, deadline)
