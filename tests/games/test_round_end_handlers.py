"""A round's end runs the handlers the apps above the games' core registered (games.core.round_ends):
the staking's settlement, then the leaderboard's results, in the transaction of the action that ends
the round, so the core imports neither."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from accounts.ledger.history import balance_of
from games import actions
from games.core import round_ends
from games.core.round_ends import Stage
from games.models import Game, Round
from leaderboard.models import Result
from tests.factories import accounts, computer_game, finished_staked_game, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

REGISTERED = [
    "SETTLE games.staking.settlement.settle",
    "RECORD leaderboard.results.record_ended_round",
    "FOLLOW games.tournaments.handlers.decide_match",
]
SHOW = (
    "import django; django.setup()\n"
    "from games.core.round_ends import handlers\n"
    "for stage, handler in handlers():\n"
    "    print(stage.name, f'{handler.__module__}.{handler.__qualname__}')\n"
)


def test_django_setup_registers_the_settlement_then_the_results():
    """In a process that does nothing but set Django up: the apps' ready() registered them."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ludopat.settings"}
    shown = subprocess.run(
        [sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True
    )
    assert shown.stdout.split("\n")[:-1] == REGISTERED


def test_this_process_has_them_registered_once():
    handlers = round_ends.handlers()
    names = [f"{stage.name} {h.__module__}.{h.__qualname__}" for stage, h in handlers]
    assert names == REGISTERED


@pytest.fixture
def quiet(redis_client, settings):
    settings.LUDOPAT_TEST_SEEDS = True


@pytest.mark.django_db
def test_a_staked_round_records_the_coins_its_settlement_paid(quiet):
    winner, loser = accounts("winner", "loser")
    game = finished_staked_game(winner, loser)  # 100 each; the loser resigned
    # The pot of 200 less the house's 10%: the results hold what the ledger paid.
    assert (balance_of(winner.pk), balance_of(loser.pk)) == (1080, 900)
    coins = dict(Result.objects.filter(round__game=game).values_list("user__username", "coins"))
    assert coins == {"winner": 80, "loser": -100}


@pytest.mark.django_db
def test_a_handler_that_fails_leaves_the_round_in_play(quiet, monkeypatch):
    ann = accounts("ann")[0]
    game = computer_game(member(ann))

    def broken(ended: round_ends.EndedRound) -> None:
        raise RuntimeError("the results could not be written")

    monkeypatch.setitem(round_ends._HANDLERS, Stage.RECORD, [broken])
    with pytest.raises(RuntimeError, match="could not be written"):
        actions.do_abandon(game.pk, member(ann))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and not Round.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_with_no_handler_registered_no_round_ends_unscored(quiet, monkeypatch):
    ann = accounts("ann")[0]
    game = computer_game(member(ann))
    monkeypatch.setitem(round_ends._HANDLERS, Stage.RECORD, [])
    with pytest.raises(RuntimeError, match="apps are not ready"):
        actions.do_abandon(game.pk, member(ann))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
