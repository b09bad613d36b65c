"""Leaving: resigning, a guest leaving a room, the host closing it, abandoning a game."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..core.actors import Actor, owns, playing_seats, refuse_banned, seats_of
from ..core.errors import Conflict, NotAllowed
from ..core.narration import who
from ..core.round_ends import RoundEnd
from ..models import Action, Game, Seat
from .core import check_playing, lock_game, record_action, save_game
from .rounds import end_round, gave_up_last
from .state import engine_state, seats_in, turn_seat

STARTED_SINCE = "The game has started: use Resign to give it up."


def refuse_if_started_since(game: Game, version: int | None) -> None:
    """A leave or a cancel decided on the open room's page (`version`, the one it showed) must not turn
    into resigning the game that started since, as a guest joined while the host pressed the button."""
    if version is None or game.status == Game.Status.OPEN:
        return
    if Action.objects.filter(game=game, kind=Action.Kind.START, seq__gt=version).exists():
        raise Conflict(STARTED_SINCE)


def _active(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.resigned]


def _resign(game: Game, seats: list[Seat], seat: Seat, how: RoundEnd = RoundEnd.RESIGN) -> None:
    """`seat` gives up: with one opponent left the round ends (the winner, the resigner, then those
    who resigned earlier, the first of them last); otherwise the computer plays on for the seat."""
    seat.resigned = True
    seat.bot_controlled = True
    seat.save(update_fields=["resigned", "bot_controlled"])
    others = [s for s in _active(seats) if s != seat]
    text = f"{who(seat)} resigned."
    if len(others) == 1:
        places = gave_up_last(game, seats, [seat])
        text += f" {who(others[0])} wins!"
        end_round(
            game, seats, places=places, how=how, action=Action.Kind.RESIGN, seat=seat, text=text
        )
        return
    text += " The computer plays on for that seat."
    game.message = text
    game.new_round_votes = []
    record_action(game, Action.Kind.RESIGN, seat, {}, text)
    save_game(game, seats=seats)


def do_resign(game_id: str, actor: Actor, seat_index: int | None = None) -> Game:
    """A player gives up: with one opponent left the opponent wins; otherwise a computer plays on."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_playing(game)
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
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


def do_leave(game_id: str, actor: Actor, *, version: int | None = None) -> Game:
    """Leave a room: a guest before the start frees the seat; the host closes the room; in play, resign.
    `version`: the one the player's page showed (refused if the game has started since)."""
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        mine = [s for s in seats_of(game, seats, actor) if not s.resigned]
        if game.is_over:
            raise Conflict("This game is over.")
        refuse_if_started_since(game, version)
        if game.status == Game.Status.OPEN:
            if owns(game, actor):
                return _abandon(game, seats, [], closed_text(game))
            if not mine:
                raise NotAllowed("You have no seat in this room.")
            seat = mine[0]
            name = who(seat)
            seat.kind, seat.user_id, seat.player_key, seat.name = Seat.Kind.OPEN, None, "", ""
            seat.save()
            game.message = f"{name} left the room."
            record_action(game, Action.Kind.LEAVE, seat, {}, game.message)
            save_game(game)
            return game
        if not mine:
            raise NotAllowed("You have no seat in this game.")
        if game.mode != Game.Mode.FRIENDS:
            return _abandon(game, seats, mine, "The game was abandoned.")
        _resign(game, seats, mine[0], RoundEnd.LEAVE)
        return game


def closed_text(game: Game) -> str:
    """What the log says when a room closes before its start: a quick-match entry has no host and no
    room in its player's eyes, only a place in the queue they left (their stake back)."""
    if game.quick:
        return "The quick-match entry was cancelled: the stake went back to the wallet."
    return "The host closed the room."


def close_before_start(
    game: Game, seats: list[Seat], text: str, data: dict[str, Any] | None = None
) -> None:
    """An open room closes before its start for a reason of a layer above (quick match's sweep
    pairing its entry into another room): cancelled, counting for nobody, a staked room's stake
    refunded; `data` is kept on the closing action. The caller holds the game's lock."""
    if game.status != Game.Status.OPEN:
        raise Conflict("This room has started or closed already.")
    end_round(
        game,
        seats,
        places=[],
        how=RoundEnd.CANCEL,
        action=Action.Kind.ABANDON,
        text=text,
        data=data,
    )


def _abandon(game: Game, seats: list[Seat], quitters: list[Seat], text: str) -> Game:
    """The game ends without being played out: `quitters` gave it up (a room closed before its start
    is cancelled, counting for nobody)."""
    if game.status == Game.Status.OPEN:
        places, how = [], RoundEnd.CANCEL
    else:
        places, how = gave_up_last(game, seats, quitters), RoundEnd.ABANDON
    end_round(game, seats, places=places, how=how, action=Action.Kind.ABANDON, text=text)
    return game


def do_abandon(game_id: str, actor: Actor) -> Game:
    """Drop a game from "Continue": your own computer or pass & play game ends; in a room you resign."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.is_over:
            raise Conflict("This game is already over.")
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        if game.mode != Game.Mode.FRIENDS:
            if not owns(game, actor):
                raise NotAllowed("Only the person who started this game can abandon it.")
            return _abandon(game, seats, seats_of(game, seats, actor), "The game was abandoned.")
        if game.status == Game.Status.OPEN and owns(game, actor):
            return _abandon(game, seats, [], closed_text(game))
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


# --- for a ban (accounts.moderation.banned_games): the account gives up, sending no command -------


def give_up_for_ban(game: Game, seats: list[Seat], user_id: int) -> None:
    """The account's seats leave the room (a host's room closes, stakes refunded) or, in play, resign
    one by one until the round is over. The caller holds the game's lock."""
    theirs = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id == user_id]
    if game.status == Game.Status.OPEN:
        if game.owner_id == user_id:
            _abandon(game, seats, [], closed_text(game))
            return
        for seat in theirs:
            name = who(seat)
            seat.kind, seat.user_id, seat.player_key, seat.name = Seat.Kind.OPEN, None, "", ""
            seat.save()
            game.message = f"{name} left the room."
            record_action(game, Action.Kind.LEAVE, seat, {}, game.message)
        if theirs:
            save_game(game)
        return
    for seat in theirs:
        if game.status == Game.Status.PLAYING and not seat.resigned:
            _resign(game, seats, seat)
