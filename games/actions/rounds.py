"""The end of a round, the one place it happens, and new rounds.

`end_round` is the one call every way a round ends makes (the winning move, a resignation, leaving
mid-game, an abandonment, a new-round request that wipes the round in play, an idle close, a staked
game voided for absence, a moderator's void), inside the transaction of the action that ends it and
holding the game's row lock. It ends the round (`finish_round`: status and places, then the round-end
handlers the apps above register (games.core.round_ends): the settlement of staked games, then the
results the leaderboard ranks, so a round can't be over and unpaid or unscored), records the action
that ended it, saves the game and, on commit, tells the viewers (`save_game`), so no caller can leave
half of it undone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from .. import engine
from ..core import presence
from ..core.actors import Actor, refuse_banned, seats_of, sits_in
from ..core.errors import Conflict, NotAllowed
from ..core.narration import who
from ..core.public_rounds import keep_round
from ..core.round_ends import ENDS, PLAYED, RANKED, EndedRound, RoundEnd, run_handlers
from ..models import Action, Game, Seat
from .core import lock_game, record_action, reseed, save_game
from .setup import start_round
from .state import seats_in


def end_round(
    game: Game,
    seats: list[Seat],
    *,
    places: list[int],
    how: RoundEnd,
    action: str | None = None,
    seat: Seat | None = None,
    text: str = "",
    data: dict[str, Any] | None = None,
    message: str | None = None,
    state: engine.State | None = None,
    auto: str = "",
    deadline: datetime | None = None,
    next_round: bool = False,
) -> dict[int, int]:
    """End the round in play, in one operation (the caller holds the row lock, in its transaction):
    the round ends (`finish_round`), the action that ended it is recorded (`action` by `seat`, with
    `data`, `text`, and `auto`/`deadline` for a move), the board says `message` (`text` by default),
    and the game is saved with the engine's `state` where a move ended it; the viewers are told on
    commit. `next_round`: a new round starts in the same call instead (its start is the action).

    `places` are seat indexes, winner first; a side that gave up is last. Returns the coins each seat
    won (+) or lost (-) in a staked game ({} otherwise).
    """
    if next_round:
        coins = finish_round(game, seats, places, how)
        _new_round(game, seats)  # records the new round and saves
        return coins
    if action is None:
        raise ValueError("a round ends with an action, or with the next round")
    # The action first: a move that wins is recorded as the move, and the round ends with it.
    record_action(game, action, seat, data, text, auto=auto, deadline=deadline)
    coins = finish_round(game, seats, places, how)
    game.message = text if message is None else message
    save_game(game, state, seats)
    return coins


def finish_round(game: Game, seats: list[Seat], places: list[int], how: RoundEnd) -> dict[int, int]:
    """The round's end itself, for `end_round` (which records and saves): status and places, then the
    round-end handlers (the coins of a staked game, then the results). Returns the coins each seat won
    (+) or lost (-)."""
    if how not in ENDS:
        raise ValueError(f"unknown way for a round to end: {how}")
    how = RoundEnd(how)
    game.status = Game.Status.FINISHED if how in PLAYED else Game.Status.ABANDONED
    game.finished = timezone.now()
    game.result_places = banned_last(seats, places) if how in RANKED else []
    game.new_round_votes = []
    ended = EndedRound(game, seats, list(game.result_places), how)
    run_handlers(ended)
    return ended.coins


def refuse_if_staked(game: Game, what: str) -> None:
    """For what a staked game doesn't have (new rounds: a rematch is a new room with new stakes), nor
    a tournament's match (the bracket opens the next one), nor a public table (Play now seats the
    next one)."""
    if game.stake:
        raise Conflict(f"A staked room can't {what}: it starts when an opponent joins.")
    if game.in_tournament:
        raise Conflict("A tournament match is one round: the winner's next match opens by itself.")
    if game.public:  # the waiting list seats each table; a new round would seat nobody by it
        raise Conflict("A public table is one round: press Play now for another table.")


def gave_up_last(
    game: Game,
    seats: list[Seat],
    quitters: list[Seat] | tuple[Seat, ...] = (),
    order: list[int] | None = None,
) -> list[int]:
    """Places (seat indexes, first place first) for a round given up by some: those who played on (in
    `order`, the engine's finishing order where it ranked them, else seat order), then `quitters`, who
    give up now, then those who resigned earlier in the round, so that the first to give up is last."""
    earlier = [s.index for s in in_giving_up_order(game, seats) if s not in quitters]
    last = [s.index for s in quitters] + earlier
    ranked: list[int] = []
    for index in list(order or []) + [s.index for s in seats]:
        if index not in last and index not in ranked:
            ranked.append(index)
    return ranked + last


def in_giving_up_order(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats that resigned, the last to give up first (the order of their places): by the round's
    RESIGN actions; a seat with none gave up before the round (a banned account's), so first of all."""
    resigned = [s for s in seats if s.resigned]
    if not resigned:
        return []
    when = dict(
        Action.objects.filter(
            game=game, round=game.round, kind=Action.Kind.RESIGN, seat__in=resigned
        )
        .values_list("seat_id")
        .annotate(last=Max("seq"))
        .values_list("seat_id", "last")
    )
    return sorted(resigned, key=lambda s: when.get(s.pk, -1), reverse=True)


def _banned(seat: Seat) -> bool:
    """A banned account's seat: it gave up when the ban came, and gives up every round after it."""
    return seat.user is not None and seat.user.is_banned


def banned_last(seats: list[Seat], places: list[int]) -> list[int]:
    """`places` with the seats of banned accounts moved to the end: a ban is a sanction, so a banned
    account places last whatever ended the round and whoever gave up before it (the computer may
    have won for its seat, or the others given up first)."""
    banned = {s.index for s in seats if _banned(s)}
    return [i for i in places if i not in banned] + [i for i in places if i in banned]


def _here(game: Game, seats: list[Seat]) -> set[int]:
    """The seats of a room whose player is at the table now, where it matters: only a seat the
    computer holds for its player asks (presence is Redis's; without it everyone counts as here)."""
    held = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.bot_controlled and not _banned(s)]
    if game.mode != Game.Mode.FRIENDS or not held:
        return set()
    return presence.connected_seats(game.pk)


def _humans(seats: list[Seat], here: set[int]) -> list[Seat]:
    """The people whose agreement a new round needs: everyone at the table (`here`, the seats present
    now) and every resigned player. The computer answers only for an absent player whose seat it
    holds; a banned one does not hold the others up."""
    return [
        s
        for s in seats
        if s.kind == Seat.Kind.HUMAN
        and (s.resigned or not s.bot_controlled or s.pk in here)
        and not _banned(s)
    ]


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
        refuse_if_staked(game, "start a new round (offer a rematch instead)")
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        mine = seats_of(game, seats, actor)
        if not mine:
            raise NotAllowed("Only the players of this game can start a new round.")
        humans = _humans(seats, _here(game, seats))
        alone = game.mode != Game.Mode.FRIENDS or all(sits_in(s, actor) for s in humans)
        if alone:
            if game.is_over:
                _new_round(game, seats)
            else:  # the asker wipes the round in play: they gave it up
                places = gave_up_last(game, seats, mine)
                end_round(game, seats, places=places, how=RoundEnd.WIPE, next_round=True)
            return game
        votes = set(game.new_round_votes) | {s.index for s in mine if s in humans}
        needed = {s.index for s in humans}
        if needed <= votes:
            if game.is_over:
                _new_round(game, seats)
            else:  # everyone agreed to end the round in play
                end_round(game, seats, places=[], how=RoundEnd.AGREED, next_round=True)
            return game
        game.new_round_votes = sorted(votes)
        waiting = [who(s) for s in humans if s.index not in votes]
        asker = who(mine[0])
        word = "Play again" if game.is_over else "A new round"
        game.message = f"{asker} asks for a new round. Waiting for {', '.join(waiting)}."
        record_action(
            game, Action.Kind.NEW_ROUND, mine[0], {"vote": True}, f"{word}? {asker} agrees."
        )
        save_game(game)
        return game


def _new_round(game: Game, seats: list[Seat]) -> None:
    # Already written if the round ended (end_round); a round that never finished has none yet.
    keep_round(game, seats, game.result_places if game.status == Game.Status.FINISHED else [])
    players = [list(p) for p in engine.next_round_players(game.ruleset, game.players)]
    game.round += 1
    game.players = players
    reseed(game)
    game.result_places = []
    game.new_round_votes = []
    game.finished = None
    _seat_players_again(game, seats)
    record_action(game, Action.Kind.NEW_ROUND, None, {"round": game.round}, f"Round {game.round}.")
    start_round(game, seats)


def _seat_players_again(game: Game, seats: list[Seat]) -> None:
    """A new round gives every player their seat back: the resigned ones play again, and the computer
    lets go of the seat of everyone at the table now, so it plays none of their turns. An absent
    player's seat stays with it until their page connects (seat_connected); a banned one's stays
    given up."""
    here = _here(game, seats)
    for seat in seats:
        if _banned(seat):  # banned between two rounds too: gives this one up from its start
            if not (seat.resigned and seat.bot_controlled):
                seat.resigned = seat.bot_controlled = True
                seat.save(update_fields=["resigned", "bot_controlled"])
            continue
        fields = []
        if seat.resigned:
            seat.resigned = False
            fields.append("resigned")
        if seat.bot_controlled and seat.pk in here:
            seat.bot_controlled = False
            fields.append("bot_controlled")
        if fields:
            seat.save(update_fields=fields)
