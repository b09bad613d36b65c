"""What a finished round adds to the standings: 10/6/3/0 by place, for accounts only, once."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from games import engine
from games.models import Round
from leaderboard.models import ALL_RULESETS, Board, Period, Result, Standing
from leaderboard.periods import period_starts
from leaderboard.standing_sums import standing_keys
from leaderboard.standings import standings, windows
from tests.games.webplay import computer_game, local_game, member

from .helpers import accounts, finish, room, write

pytestmark = pytest.mark.django_db


def all_time(user, board=Board.PEOPLE, ruleset=ALL_RULESETS) -> tuple[int, int, int] | None:
    row = Standing.objects.filter(
        user=user, board=board, ruleset=ruleset, period=Period.ALL
    ).first()
    return (row.points, row.games, row.wins) if row else None


@pytest.mark.parametrize(
    ("ruleset", "count", "points"),
    [
        ("classic", 2, [10, 0]),
        ("classic", 3, [10, 6, 0]),
        ("classic", 4, [10, 6, 3, 0]),
        ("places", 2, [10, 0]),
        ("places", 3, [10, 6, 0]),
        ("places", 4, [10, 6, 3, 0]),
        ("duel", 2, [10, 0]),
        ("twodice", 2, [10, 0]),
    ],
)
def test_each_place_scores_its_points(ruleset, count, points):
    users = accounts(*[f"p{i}" for i in range(count)])
    game = room(users, ruleset)
    order = list(reversed(users))  # the host comes last
    finish(game, order)

    for user, expected in zip(order, points, strict=True):
        assert all_time(user) == (expected, 1, int(expected == 10))
        assert all_time(user, ruleset=ruleset) == (expected, 1, int(expected == 10))
        result = Result.objects.get(user=user)
        assert (result.points, result.players, result.against_people) == (expected, count, True)


def test_classic_ranks_the_players_behind_the_winner_by_distance():
    users = accounts("ann", "ben", "cat")
    game = room(users, "classic")
    state = engine.new_game("classic", game.players)
    # Red has three tokens home and one a 1 away; yellow (player 2) has travelled further than green.
    state = state._replace(tokens=((56, 56, 56, 55), (10, -1, -1, -1), (30, 4, -1, -1)), turn=0)
    state, _ = engine.roll(state, [1])
    if not state.finished:
        state, _ = engine.apply_move(state, engine.legal_moves(state)[0])
    assert state.finished and state.places == (0, 2, 1)

    seats = {s.index: s for s in game.seats.all()}
    finish(game, [seats[p].index for p in state.places])
    assert [all_time(u)[0] for u in users] == [10, 0, 6]


def test_computers_take_places_but_are_never_ranked():
    (ann,) = accounts("ann")
    game = computer_game(member(ann), levels=("greedy", "greedy", "greedy"))
    finish(game, [1, 0, 2, 3])  # a computer wins, ann is second

    assert Result.objects.filter(round__game=game).count() == 4
    assert all_time(ann, Board.ALL) == (6, 1, 0)
    assert all_time(ann, Board.PEOPLE) is None  # not against people
    assert set(Standing.objects.values_list("user_id", flat=True)) == {ann.pk}
    computers = Result.objects.filter(round__game=game, is_computer=True)
    assert computers.count() == 3 and not computers.filter(counted=True).exists()


def test_pass_and_play_never_counts_but_keeps_a_public_replay():
    (ann,) = accounts("ann")
    game = local_game(member(ann))
    kept = finish(game, [0, 1])

    assert not Result.objects.exists() and not Standing.objects.exists()
    assert Round.objects.get(game=game, number=1).public_id == kept.public_id


@pytest.mark.parametrize("how", ["resign", "leave", "abandon", "wipe"])
def test_giving_up_is_last_place(how):
    ann, ben = accounts("ann", "ben")
    finish(room([ann, ben]), [ben, ann], how=how)  # ann gave up: last
    assert all_time(ben) == (10, 1, 1) and all_time(ann) == (0, 1, 0)


@pytest.mark.parametrize("how", ["agreed", "idle", "void"])
def test_agreed_idle_and_void_rounds_count_for_nobody(how):
    ann, ben = accounts("ann", "ben")
    finish(room([ann, ben]), [ann, ben], how=how)
    assert not Standing.objects.exists()
    assert list(Result.objects.values_list("void", "counted", "points")) == [(True, False, 0)] * 2


def test_an_unknown_way_to_end_is_refused():
    ann, ben = accounts("ann", "ben")
    with pytest.raises(ValueError, match="unknown way for a round to end: surrendered"):
        finish(room([ann, ben]), [ann, ben], how="surrendered")


def test_staked_results_record_the_coins():
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "twodice")
    finish(game, [ann, ben], how="resign", coins={0: 90, 1: -100})
    assert all_time(ann, ruleset="twodice") == (10, 1, 1)
    assert (
        Standing.objects.get(user=ann, ruleset="twodice", board=Board.PEOPLE, period="all").coins
        == 90
    )
    assert Result.objects.get(user=ben).coins == -100


def test_two_accounts_score_at_most_five_rounds_a_utc_day_against_each_other():
    ann, ben, cat = accounts("ann", "ben", "cat")
    day = datetime(2026, 3, 4, 10, tzinfo=UTC)
    for n in range(7):
        write([ann, ben], day + timedelta(minutes=n))
    assert all_time(ann) == (50, 5, 5) and all_time(ben) == (0, 5, 0)

    write([cat, ann, ben], day + timedelta(hours=1))  # cat still scores; ann and ben don't
    assert all_time(cat) == (10, 1, 1) and all_time(ann) == (50, 5, 5)

    write([ann, ben], day.replace(hour=23, minute=59, second=59))  # still the same UTC day
    write([ben, ann], day + timedelta(days=1) - timedelta(hours=10))  # 00:00 the next day
    assert all_time(ann) == (50, 6, 5) and all_time(ben) == (10, 6, 1)


def test_a_round_against_the_computer_is_not_capped():
    (ann,) = accounts("ann")
    day = datetime(2026, 3, 4, 10, tzinfo=UTC)
    for n in range(8):
        write([ann, None], day + timedelta(minutes=n))
    assert all_time(ann, Board.ALL) == (80, 8, 8)


def test_windows_start_monday_and_the_first_of_the_month_utc():
    (ann,) = accounts("ann")
    sunday_night = datetime(2026, 5, 31, 23, 59, 59, tzinfo=UTC)
    monday = datetime(2026, 6, 1, 0, 0, tzinfo=UTC)  # also the 1st of June
    write([ann, None], sunday_night)
    write([None, ann, None], monday)

    now = monday + timedelta(days=2)
    w = windows(now)
    board = Board.ALL
    assert [(s.points, s.games) for s in standings(w["week"], board=board)] == [(6, 1)]
    assert [(s.points, s.games) for s in standings(w["last-week"], board=board)] == [(10, 1)]
    assert [(s.points, s.games) for s in standings(w["month"], board=board)] == [(6, 1)]
    assert [(s.points, s.games) for s in standings(w["last-month"], board=board)] == [(10, 1)]
    assert [(s.points, s.games) for s in standings(w["all"], board=board)] == [(16, 2)]
    assert period_starts(monday)[0][1].isoformat() == "2026-06-01"


def test_the_summary_equals_the_results_it_sums():
    rng = random.Random(11)
    users = accounts(*[f"u{i}" for i in range(8)])
    start = datetime(2026, 1, 26, tzinfo=UTC)
    hows = ["won"] * 6 + ["resign", "wipe", "agreed", "void"]
    for _ in range(120):
        ruleset = rng.choice(["classic", "places", "duel", "twodice"])
        count = rng.choice([2, 3, 4]) if ruleset in ("classic", "places") else 2
        seated = rng.sample(users, count)
        order = [None if rng.random() < 0.25 else u for u in seated]
        when = start + timedelta(minutes=rng.randrange(60 * 24 * 70))
        write(order, when, ruleset, how=rng.choice(hows))

    expected = Counter()
    for row in Result.objects.filter(counted=True):
        for key in standing_keys(row):
            expected[key, "points"] += row.points
            expected[key, "games"] += 1
            expected[key, "wins"] += row.place == 1
    got = Counter()
    for s in Standing.objects.all():
        key = (s.user_id, s.ruleset, s.board, s.period, s.start)
        got[key, "points"] += s.points
        got[key, "games"] += s.games
        got[key, "wins"] += s.wins
    assert +got == +expected and len(expected) > 100
