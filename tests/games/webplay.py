"""Helpers for the web-play tests: playing on until something holds, choosing who acts, reading a game
as a player sees it. The actors and games they play are made in tests/factories.py (imported here too,
under the names this module always offered)."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from games import actions, engine
from games.actions import Actor
from games.models import Action, Game, Seat
from tests.factories import (  # re-exported (see __all__): many tests import them from here
    SEED,
    anon,
    computer_game,
    everyone_here,
    friends_room,
    local_game,
    member,
)

__all__ = [
    "SEED",
    "Actor",
    "actor_of",
    "anon",
    "awaiting_move",
    "computer_game",
    "everyone_here",
    "expire",
    "fresh",
    "friends_room",
    "live_html",
    "local_game",
    "me",
    "member",
    "page_html",
    "play_until",
    "snapshot",
    "step",
    "turn_seat",
]


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


def me(actor):
    """For play_until/step: `actor` acts for every seat (a pass & play owner, a lone player)."""
    return lambda seat: actor


def actor_of(seat: Seat, *people):
    """Which of `people` (actors) sits in `seat`."""
    return next(p for p in people if p.user_id == seat.user_id)


def snapshot(game: Game) -> tuple:
    """What a refused action must leave as it was: version, state, nonce and the action log's length."""
    game = fresh(game)
    return game.version, game.state, game.nonce, Action.objects.filter(game=game).count()


def expire(game: Game) -> Game:
    """Move the game's deadlines into the past, as if the time had run out."""
    past = timezone.now() - timedelta(milliseconds=10)
    Game.objects.filter(pk=game.pk).update(deadline=past, turn_deadline=past)
    return fresh(game)


def live_html(game, actor) -> str:
    """The live board as `actor` sees it (the part a WebSocket push replaces)."""
    from games.live.fragments import render_live
    from games.live.viewpoint import viewpoint_for

    seats = list(game.seats.select_related("user"))
    return render_live(game, viewpoint_for(game, seats, actor), seats=seats)


def page_html(game, actor) -> str:
    """The game's page for `actor` (an account), logged in."""
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(pk=actor.user_id))
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()
