"""The table as an action finds it: the game's seats, the engine state of its round (rebuilt from the
Action log, kept per version in memory: games.core.caches, once the transaction that worked it out
commits), and whose turn it is."""

from __future__ import annotations

from collections.abc import Iterable

from ludopat.compiled_reads import CompiledRead

from .. import engine
from ..core import caches
from ..models import Action, Game, Seat

# (compiled once per process and database: ludopat.compiled_reads)
SEATS_USERS = CompiledRead(
    "seats and their accounts",
    Seat,
    lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user").order_by("index"),
)


def seats_in(game: Game) -> list[Seat]:
    """The game's seats in seat order (each with `game` as its game, as `game.seats` gives them)."""
    seats = SEATS_USERS(game.pk)
    for seat in seats:
        seat.game = game
    return seats


def players_of(game: Game) -> list[list[str]]:
    return [list(p) for p in game.players]


def engine_state(game: Game) -> engine.State:
    """The current round's engine state, rebuilt from the Action log (kept per version in memory,
    games.core.caches: once this transaction commits)."""
    key = (game.pk, game.round, game.version)
    cached = caches.STATES.get(key)
    if cached is not None:
        return cached
    state = engine.new_game(game.ruleset, players_of(game), game.options)
    # Up to this version only: a row committed since the game was read belongs to a later one.
    rows = Action.objects.filter(
        game=game,
        round=game.round,
        kind__in=[Action.Kind.ROLL, Action.Kind.MOVE],
        seq__lte=game.version,
    ).order_by("seq")
    for row in rows.values_list("kind", "data"):
        kind, data = row
        if kind == Action.Kind.ROLL:
            state, _ = engine.roll(state, data["roll"])
        else:
            body = data["move"]
            colour, index = body["token"]
            state, _ = engine.move(state, colour, index, body.get("die"), body.get("pair", False))
    remember(game, state)
    return state


def remember(game: Game, state: engine.State) -> None:
    """Keep `state` as the game's at its version, if and when this transaction commits."""
    caches.keep(caches.STATES, (game.pk, game.round, game.version), state)


def seat_of_player(seats: list[Seat], colours: Iterable[str]) -> Seat:
    colours = list(colours)
    for seat in seats:
        if list(seat.colours) == colours:
            return seat
    raise LookupError(f"no seat plays {colours}")


def turn_seat(game: Game, seats: list[Seat], state: engine.State) -> Seat | None:
    if game.status != Game.Status.PLAYING or state.finished:
        return None
    return seat_of_player(seats, state.players[state.turn])
