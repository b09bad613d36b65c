"""Refusals name tokens as the board labels them, 1 to 4 (the wire and the engine count from 0)."""

from __future__ import annotations

import pytest

from games import actions, engine
from games.core.errors import GameError
from games.core.narration import colour_name
from games.web import commands
from tests.games.webplay import SEED, anon, awaiting_move, local_game, play_until

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


def stuck_tokens(game) -> tuple[str, list[int]]:
    """The colour to move and its tokens that can't move now."""
    state = actions.engine_state(game)
    colour = state.players[state.turn][0]
    movable = {(m.colour, m.index) for m in engine.legal_moves(state)}
    return colour, [i for i in range(4) if (colour, i) not in movable]


def test_a_token_that_cant_move_is_named_as_the_board_labels_it():
    owner = anon()
    game = play_until(
        local_game(owner), lambda seat: owner, lambda g: awaiting_move(g) and stuck_tokens(g)[1]
    )
    colour, stuck = stuck_tokens(game)
    fields = {"version": str(game.version), "colour": colour, "index": str(stuck[0])}
    with pytest.raises(GameError) as refused:
        commands.run("move", game.pk, owner, fields)
    assert f"{colour_name(colour)} {stuck[0] + 1} can't move" in str(refused.value)


def test_a_token_number_out_of_range_is_refused_in_the_boards_numbering():
    owner = anon()
    game = local_game(owner)
    fields = {"version": str(game.version), "colour": "red", "index": "4"}
    with pytest.raises(GameError) as refused:
        commands.run("move", game.pk, owner, fields)
    assert refused.value.status == 400
    assert "tokens are 1 to 4" in str(refused.value)
