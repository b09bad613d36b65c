"""The data migration's backfill: rounds that finished before results existed get them, once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.models import Action, Game, Round
from leaderboard.backfill import backfill
from leaderboard.models import Board, PairDay, Period, Result, Standing
from tests.games.webplay import computer_game, local_game, member

from .helpers import accounts, room

pytestmark = pytest.mark.django_db


def finished_before_results(game: Game, places: list[int], at: datetime) -> None:
    """A round that ended the old way: places on the game, no Round row, no results."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result_places=places)
    Action.objects.filter(game=game).update(created=at - timedelta(minutes=5))
    last = Action.objects.filter(game=game).order_by("-seq").first()
    Action.objects.filter(pk=last.pk).update(created=at)


def backfill_now() -> int:
    """The migration's backfill, with today's models for its historical ones."""
    return backfill(
        game_model=Game, round_model=Round, action_model=Action, tables=(Result, Standing, PairDay)
    )


def test_backfill_writes_each_old_round_once_at_its_last_action():
    ann, ben = accounts("ann", "ben")
    duel = room([ann, ben], "duel")
    Round.objects.create(game=duel, number=1, players=duel.players, places=[1, 0])  # ben won it
    Game.objects.filter(pk=duel.pk).update(round=2)
    Action.objects.filter(game=duel).update(round=2)
    Action.objects.filter(pk=Action.objects.filter(game=duel).order_by("seq").first().pk).update(
        round=1
    )
    duel.refresh_from_db()
    at = datetime(2026, 2, 10, 12, tzinfo=UTC)
    finished_before_results(duel, [0, 1], at)  # round 2: ann won
    vs_computer = computer_game(member(ann))
    finished_before_results(vs_computer, [0, 1], at)
    finished_before_results(local_game(member(ann)), [0, 1], at)

    assert backfill_now() == 3
    assert Round.objects.filter(game=duel).count() == 2  # round 2 got its row and public id
    assert (
        Result.objects.filter(round__game=duel, round__number=2, user=ann).get().finished_at == at
    )
    people = Standing.objects.get(user=ann, ruleset="all", board=Board.PEOPLE, period=Period.ALL)
    everything = Standing.objects.get(user=ann, ruleset="all", board=Board.ALL, period=Period.ALL)
    assert (people.points, people.games, everything.points, everything.games) == (10, 2, 20, 3)
    assert (
        Standing.objects.get(user=ben, ruleset="duel", board=Board.PEOPLE, period=Period.ALL).points
        == 10
    )

    assert backfill_now() == 0  # a second run changes nothing
    assert Result.objects.count() == 6
