"""What the board shows from the action log: read once per version and process, one action on from the
last version's where it can, and always what a full read gives."""

from __future__ import annotations

import pytest

from games.core import caches
from games.live.history import history_of, read_history
from games.models import Game
from tests.games.webplay import SEED, anon, fresh, local_game, step

# Committed for real: the process's caches keep only what was committed (games.core.caches).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fixed_seeds(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


@pytest.mark.slow  # whole games, a history each action: make test, not test-fast
@pytest.mark.parametrize("ruleset", ["classic", "twodice"])
def test_a_history_built_one_action_on_from_the_last_equals_the_one_read_in_full(
    ruleset, django_assert_max_num_queries
):
    """Each version's history is the last one's plus one action (no query in the process that made
    the action, which keeps it; one in another process); what the board shows from it (last token,
    last roll, the log, the kept rounds) must be exactly what a full read gives, over a whole game,
    its round's end included."""
    owner = anon("history-owner")
    game = local_game(owner, ruleset=ruleset, options={"tokens": 2} if ruleset == "classic" else {})
    caches.HISTORIES.clear()
    history_of(fresh(game))
    stepped = 0
    for n in range(3000):
        game = fresh(game)
        if game.status != Game.Status.PLAYING:
            break
        game = step(game, lambda seat: owner)
        playing = game.status == Game.Status.PLAYING
        elsewhere = n % 2 == 1  # every other action as if another process had made it
        if elsewhere:
            caches.STEPS.clear()
        # A roll or a move on in a round being played costs no query where it was made and one
        # elsewhere; a round's end is read in full.
        with django_assert_max_num_queries((1 if elsewhere else 0) if playing else 4):
            built = history_of(game)
        assert built == read_history(game), f"version {game.version}"
        stepped += playing
    assert game.status == Game.Status.FINISHED and stepped > 20
    assert history_of(game).rounds  # the round that ended is kept
