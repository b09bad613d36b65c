"""One commitment for coins at a time when two tabs press at once (PostgreSQL: threads, each its own
connection, released together; SQLite serialises every writer, so these races can't happen there).

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> \
      .venv/bin/pytest tests/games/staking/test_commitment_races.py -p no:xdist
"""

from __future__ import annotations

import pytest

from accounts.ledger.history import balance_of
from games.core.errors import Conflict
from games.models import Game
from games.staking.quick import do_quick_match
from games.staking.rooms import do_create_staked_room
from tests.factories import member, seasoned_account
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401
from tests.races import at_once, postgres_only, refused, succeeded

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True


@pytest.mark.parametrize("attempt", range(2))  # which tab wins varies: both outcomes are checked
def test_a_press_that_pairs_at_once_and_a_room_opened_from_another_tab(attempt):
    player = member(seasoned_account(f"player{attempt}"))
    waiting = do_quick_match(member(seasoned_account(f"waiting{attempt}")), "100")
    results = at_once(
        [
            lambda: do_quick_match(player, "100"),
            lambda: do_create_staked_room(player, "twodice", 100),
        ]
    )
    assert len(succeeded(results)) == 1, results
    (refusal,) = refused(results)
    assert isinstance(refusal, Conflict), repr(refusal)
    paired, opened = results
    if isinstance(opened, Conflict):  # the press came first: the room names the game in play
        assert paired.pk == waiting.pk and "staked game" in str(opened)
    else:  # the room came first: the press names it, and the other player still waits
        assert "open staked room" in str(paired)
        assert Game.objects.get(pk=waiting.pk).status == Game.Status.OPEN
    assert balance_of(player.user_id) == 1000 - 100
