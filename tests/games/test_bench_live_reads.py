"""bench/live.py plays the games by reading the boards it is pushed, as a player reads the page: whose
turn it is, whether the Roll button acts, and the movable tokens' buttons with their options. When the
token buttons gained an id, its pattern stopped finding them, and for months the bench's games only
rolled (stalling at every roll that needed a move): this holds it to the board as rendered."""

from __future__ import annotations

import html
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from tests.factories import everyone_here
from tests.games.webplay import (
    actor_of,
    awaiting_move,
    fresh,
    friends_room,
    live_html,
    member,
    play_until,
    turn_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_redis(redis_client):
    """Presence is kept in Redis: an empty one per test."""


def bench_live():
    path = Path(__file__).resolve().parents[2] / "bench" / "live.py"
    spec = importlib.util.spec_from_file_location("bench_live", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_live"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_bench_finds_the_movable_tokens_of_a_board_awaiting_a_move(django_user_model):
    live = bench_live()
    ann = member(django_user_model.objects.create_user("ann"))
    ben = member(django_user_model.objects.create_user("ben"))
    game = friends_room(ann, [ben])
    everyone_here(game)  # both pages open, as the bench's are
    game = play_until(game, lambda seat: actor_of(seat, ann, ben), awaiting_move)
    mover = actor_of(turn_seat(game), ann, ben)
    board = live_html(fresh(game), mover)

    head = board[:1500]
    assert 'data-my-turn="1"' in head and 'data-can-roll="0"' in head
    found = live.OPTIONS_RE.findall(board)
    assert found, "the bench sees no movable token where the player has one"
    for token, raw in found:
        colour, index = token.split(":")
        assert colour and index.isdigit()
        assert all("die" in option for option in json.loads(html.unescape(raw)))
    model = live.BoardModel()  # what the bench keeps of the board, and the action it picks
    assert model.apply(board) == "whole"
    offer = live.offer_of(model)
    assert model.version == fresh(game).version and offer[0] == "move"
    colour, index = (offer[1][k] for k in ("colour", "index"))
    assert f"{colour}:{index}" in {token for token, _ in found}
