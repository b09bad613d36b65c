"""End to end: the game actions that end a round write its results (through finish_round)."""

from __future__ import annotations

import pytest

from games import actions
from games.models import Game, Round
from leaderboard.models import Board, Period, Result, Standing
from tests.games.webplay import computer_game, local_game, member

from .helpers import accounts, room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_redis(redis_client):
    """Actions tell live pages through Redis after commit: an empty one per test."""


def points(user, board=Board.PEOPLE) -> int | None:
    row = Standing.objects.filter(user=user, board=board, ruleset="all", period=Period.ALL).first()
    return row.points if row else None


def test_a_resigned_duel_scores_the_winner_and_shows_on_both_pages(client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    actions.do_resign(game.pk, member(ben))

    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert points(ann) == 10 and points(ben) == 0
    assert list(Result.objects.values_list("how", flat=True)) == ["resign", "resign"]
    kept = Round.objects.get(game=game, number=1)
    page = client.get("/u/ben/").content.decode()
    assert "2 of 2" in page and f"/replays/{kept.public_id}/" in page and game.pk not in page
    assert "1 of 2" in client.get("/u/ann/").content.decode()


def test_every_round_of_a_room_counts_once(client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    actions.do_resign(game.pk, member(ben))
    actions.do_new_round(game.pk, member(ann))
    actions.do_new_round(game.pk, member(ben))
    actions.do_resign(game.pk, member(ann))

    assert points(ann) == 10 and points(ben) == 10
    assert Result.objects.count() == 4 and Round.objects.filter(game=game).count() == 2
    ids = set(Round.objects.filter(game=game).values_list("public_id", flat=True))
    assert len(ids) == 2


def test_wiping_a_game_against_the_computer_is_last_place_on_all_games():
    (ann,) = accounts("ann")
    game = computer_game(member(ann), levels=("greedy", "greedy"))
    actions.do_new_round(game.pk, member(ann))  # gives the round in play up

    mine = Result.objects.get(user=ann)
    assert (mine.how, mine.place, mine.players, mine.counted) == ("wipe", 3, 3, True)
    assert points(ann, Board.ALL) == 0 and points(ann, Board.PEOPLE) is None


def test_leaving_a_room_mid_game_is_last_place():
    ann, ben, cat = accounts("ann", "ben", "cat")
    game = room([ann, ben, cat], "classic")
    actions.do_leave(game.pk, member(cat))
    actions.do_leave(game.pk, member(ben))

    assert [(r.user.username, r.place) for r in Result.objects.order_by("place")] == [
        ("ann", 1),
        ("ben", 2),
        ("cat", 3),
    ]
    assert (points(ann), points(ben), points(cat)) == (10, 6, 0)


def test_a_round_everyone_agreed_to_end_counts_for_nobody():
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    actions.do_new_round(game.pk, member(ann))
    actions.do_new_round(game.pk, member(ben))

    assert not Standing.objects.exists() and not Result.objects.filter(counted=True).exists()
    assert Round.objects.filter(game=game, number=1).exists()  # its replay is still public


def test_pass_and_play_never_counts():
    (ann,) = accounts("ann")
    game = local_game(member(ann))
    actions.do_abandon(game.pk, member(ann))
    assert not Result.objects.exists() and not Standing.objects.exists()


def test_a_round_the_daily_cap_did_not_count_shows_not_counted_not_its_points(client):
    """The pair's sixth round of the day counts for nobody: the board's result panel, its place
    badge, the record and the player page say so (and why), as the stored results do, instead of
    "10 pts"."""
    ann, ben = accounts("ann", "ben")
    for _ in range(5):
        actions.do_resign(room([ann, ben], "duel").pk, member(ben))
    game = room([ann, ben], "duel")
    actions.do_resign(game.pk, member(ben))
    assert not Result.objects.get(round__game=game, user=ann).counted
    assert points(ann) == 50

    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "10 pts" not in page
    assert "not counted: the pair&#x27;s 5 rounds a day were used" in page
    first = client.get(f"/games/{game.pk}/record.json").json()["result"]["places"][0]
    assert first["name"] == "ann" and first["points"] == 0
    assert first["not_counted"] == "the pair's 5 rounds a day were used"

    profile = client.get("/u/ann/").content.decode()
    assert profile.count("not counted: the pair&#x27;s 5 rounds a day were used") == 1

    counted = Round.objects.filter(game__seats__user=ann).order_by("pk").first().game
    assert "10 pts" in client.get(f"/games/{counted.pk}/").content.decode()
