"""The question before "New round" mid-round says what ending the round does in that room: each case
is asked on the page, then answered, and the results the round left are what the question said."""

from __future__ import annotations

import html as markup
import re

import pytest

from games import actions
from games.live import new_round_words as words
from games.live.fragments import render_live
from games.live.viewpoint import viewpoint_for
from games.models import Round, Seat
from leaderboard.models import Rating, Result
from tests.factories import accounts, computer_game, local_game, member, room
from tests.games.webplay import anon, fresh
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_redis(redis_client):
    """Presence and the pushes after commit are Redis's: an empty one per test."""


def question(game, actor) -> str:
    game = fresh(game)
    seats = list(game.seats.select_related("user").order_by("index"))
    page = render_live(game, viewpoint_for(game, seats, actor), seats=seats)
    form = re.search(r'<form[^>]*action="[^"]*/new-round"[^>]*>', page)
    assert form, "no new-round form"
    found = re.search(r'hx-confirm="([^"]*)"', form.group(0))
    return markup.unescape(found.group(1)) if found else ""


def results_of(game) -> list[Result]:
    return list(Result.objects.filter(round__game=game).order_by("seat_index"))


def test_against_the_computer_the_asker_gives_the_round_up_and_it_is_scored_unrated():
    (ann,) = accounts("ann")
    game = computer_game(member(ann), ruleset="duel")
    assert question(game, member(ann)) == words.GIVE_UP_UNRATED
    actions.do_new_round(game.pk, member(ann))
    mine = next(r for r in results_of(game) if r.user_id == ann.pk)
    assert (mine.place, mine.points, mine.void) == (2, 0, False)  # scored, last
    assert mine.rating_mu is None  # a computer at the table: no rating moves


def test_in_a_room_of_people_here_it_asks_and_an_agreed_end_counts_for_nobody():
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    assert question(game, member(ann)) == words.ASK_OTHERS
    actions.do_new_round(game.pk, member(ann))
    assert not results_of(game)  # asked, nothing ended yet
    actions.do_new_round(game.pk, member(ben))
    assert Round.objects.get(game=game, number=1).how == "agreed"
    assert all(r.void and r.points == 0 for r in results_of(game))  # none, or void ones
    assert not Rating.objects.filter(games__gt=0).exists()


def test_with_the_others_away_the_asker_gives_a_rated_round_up(redis_client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    # Ben is away: the computer holds his seat, and presence knows no page of this game open.
    Seat.objects.filter(game=game, user=ben).update(bot_controlled=True)
    redis_client.flushdb()
    assert question(game, member(ann)) == words.GIVE_UP_RATED
    actions.do_new_round(game.pk, member(ann))
    by_user = {r.user_id: r for r in results_of(game)}
    assert by_user[ann.pk].place == 2 and by_user[ann.pk].points == 0
    assert by_user[ann.pk].rating_change < 0 < by_user[ben.pk].rating_change  # rated as a loss


def test_pass_and_play_says_the_round_counts_for_nobody():
    owner = anon("owner")
    game = local_game(owner)
    assert question(game, owner) == words.NOBODY_LOCAL
    actions.do_new_round(game.pk, owner)
    assert not results_of(game)
