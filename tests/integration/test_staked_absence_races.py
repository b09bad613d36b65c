"""A staked game both players left is voided by the sweeper; a player coming back at
that very moment either finds it void or keeps it, never both: one closing transaction. PostgreSQL only,
like tests/integration/test_stake_concurrency.py, whose helpers this uses."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from games import actions
from games.actions import timers
from games.core.errors import GameError
from games.models import Action, Game, Seat
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from tests.games.webplay import fresh
from tests.integration.test_stake_concurrency import players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401
from tests.races import at_once, postgres_only, refused

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    postgres_only,
]


@pytest.mark.parametrize("comeback", ["resign", "roll"])
def test_the_void_of_a_deserted_game_races_a_player_coming_back(django_user_model, comeback):
    host, guest = players(django_user_model, 2)
    game = do_create_staked_room(host, "twodice", 100)
    do_join_staked_room(guest, game.pk)
    then = timezone.now() - timedelta(seconds=90)  # both pages closed 90 s ago, nothing done since
    Seat.objects.filter(game=game).update(last_seen=then)
    Action.objects.filter(game=game).update(created=then)
    Game.objects.filter(pk=game.pk).update(started=then)
    game = fresh(game)
    by_seat = {0: host, 1: guest}
    player = by_seat[
        actions.turn_seat(game, list(game.seats.all()), actions.engine_state(game)).index
    ]
    if comeback == "resign":
        back = lambda: actions.do_resign(game.pk, player)  # noqa: E731
    else:
        back = lambda: actions.do_roll(game.pk, player, game.version)  # noqa: E731
    results = at_once([timers.sweep, back])
    for error in refused(results):
        assert isinstance(error, GameError), repr(error)
    game = fresh(game)
    assert LedgerTransaction.objects.filter(game=game, closes__isnull=False).count() <= 1
    if game.status == Game.Status.ABANDONED:  # the void came first: the player was refused
        assert isinstance(results[1], GameError)
        assert [balance_of(host.user_id), balance_of(guest.user_id)] == [1000, 1000]
    elif comeback == "resign":
        assert game.status == Game.Status.FINISHED
        assert sorted([balance_of(host.user_id), balance_of(guest.user_id)]) == [900, 1080]
    else:  # the roll came first: the game plays on
        assert game.status == Game.Status.PLAYING
        assert [balance_of(host.user_id), balance_of(guest.user_id)] == [900, 900]
