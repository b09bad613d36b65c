"""Helpers for the web-play tests: actors, games in each mode, and playing on until something holds."""

from __future__ import annotations

from games import actions, engine, presence
from games.actions import Actor, SeatSpec
from games.models import Game, Seat

SEED = "ab" * 32


def anon(key: str = "browser-1") -> Actor:
    return Actor(None, key)


def member(user) -> Actor:
    return Actor(user.pk, f"key-{user.pk}", user.username)


def computer_game(actor=None, ruleset="classic", options=None, levels=("greedy",)) -> Game:
    actor = actor or anon()
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.COMPUTER, level=lv) for lv in levels]
    return actions.create_game(actor, "computer", ruleset, options or {}, seats)


def local_game(actor=None, ruleset="classic", options=None, names=("Ann", "Ben")) -> Game:
    actor = actor or anon()
    seats = [SeatSpec(Seat.Kind.LOCAL, name=n) for n in names]
    return actions.create_game(actor, "local", ruleset, options or {}, seats)


def friends_room(host: Actor, guests=(), ruleset="classic", count=2, start=True) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.OPEN) for _ in range(count - 1)]
    game = actions.create_game(host, "friends", ruleset, {}, seats)
    for guest in guests:
        actions.do_join(game.pk, guest)
    if start:
        actions.do_start(game.pk, host)
    game.refresh_from_db()
    return game


def everyone_here(game: Game) -> None:
    ids = list(game.seats.filter(kind=Seat.Kind.HUMAN).values_list("pk", flat=True))
    presence.touch(game.pk, ids, "test-connection")


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def turn_seat(game: Game) -> Seat | None:
    game = fresh(game)
    seats = list(game.seats.all())
    return actions.turn_seat(game, seats, actions.engine_state(game))


def step(game: Game, actor_for_seat) -> Game:
    """One action by whoever is to act: the computer, or `actor_for_seat(seat)` (first legal move)."""
    game = fresh(game)
    seat = turn_seat(game)
    if seat.is_bot and seat.kind == Seat.Kind.COMPUTER:
        assert actions.do_bot_turn(game.pk, game.version)
        return fresh(game)
    state = actions.engine_state(game)
    actor = actor_for_seat(seat)
    if engine.can_roll(state) and (state.awaiting == engine.ROLL or not engine.legal_moves(state)):
        actions.do_roll(game.pk, actor, game.version)
    else:
        m = engine.legal_moves(state)[0]
        die = m.die if (len(set(state.dice)) > 1 or m.die == "total") else None
        actions.do_move(game.pk, actor, game.version, m.colour, m.index, die, m.pair)
    return fresh(game)


def play_until(game: Game, actor_for_seat, done, limit=3000) -> Game:
    for _ in range(limit):
        game = fresh(game)
        if done(game):
            return game
        game = step(game, actor_for_seat)
    raise AssertionError("the condition never held")


def awaiting_move(game: Game) -> bool:
    game = fresh(game)
    state = actions.engine_state(game)
    if game.status != Game.Status.PLAYING or not engine.legal_moves(state):
        return False
    return not turn_seat(game).is_bot
