"""Ratings are a function of the counted results in order: a round taken out is replayed away, the
5-a-day rule holds for ratings too, and `recompute_ratings` rebuilds exactly what is stored."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from celery.exceptions import Retry
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.utils import timezone
from openskill.models import PlackettLuce

from leaderboard.finished_rounds import FinishedRound, SeatFacts
from leaderboard.models import Rating, RatingReplay, Result
from leaderboard.ratings import skill
from leaderboard.ratings.rating_replay import recalculating, replay_requested
from leaderboard.results import record_played
from leaderboard.round_removal import remove_round
from leaderboard.tasks import finish_lost_replays, replay_ratings
from tests.leaderboard.helpers import bare_round
from tests.leaderboard.people import accounts

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 12, tzinfo=UTC)


def play(order, when: datetime, ruleset: str = "duel", how: str = "won") -> int:
    """A round between accounts (first place first), written as a round's end writes it; its id."""
    kept = bare_round(ruleset)
    seats = [SeatFacts(i, u.pk, u.username) for i, u in enumerate(order)]
    record_played(FinishedRound(kept.pk, ruleset, seats, list(range(len(order))), how, when))
    return kept.pk


def stored(ruleset: str):
    ratings = {
        r.user_id: (r.mu, r.sigma, r.value, r.games, r.last_played)
        for r in Rating.objects.filter(ruleset=ruleset)
    }
    results = list(
        Result.objects.filter(ruleset=ruleset)
        .order_by("pk")
        .values_list("pk", "rating_mu", "rating_sigma", "rating_change")
    )
    return ratings, results


def from_the_library(ruleset: str) -> dict[int, tuple[float, float, int]]:
    """The ratings openskill itself gives the rounds still counted, in the order they were written."""
    model = PlackettLuce()
    skills: dict[int, tuple[float, float, int]] = {}
    rows = Result.objects.filter(ruleset=ruleset, counted=True, against_people=True)
    tables: dict[int, list[Result]] = {}
    for row in rows.order_by("pk"):
        tables.setdefault(row.round_id, []).append(row)
    for table in tables.values():
        if len(table) < 2:
            continue
        table.sort(key=lambda r: r.place)
        before = [skills.get(r.user_id, (25.0, 25.0 / 3, 0)) for r in table]
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
        after = model.rate(teams, ranks=list(range(1, len(table) + 1)))
        for r, old, team in zip(table, before, after, strict=True):
            skills[r.user_id] = (team[0].mu, team[0].sigma, old[2] + 1)
    return skills


def test_a_random_history_with_voids_replays_to_what_the_library_gives_and_recompute_agrees():
    rng = random.Random(23)
    users = accounts(*[f"p{i}" for i in range(6)])
    rounds = []
    for n in range(36):
        ruleset = rng.choice(["duel", "classic"])
        table = rng.sample(users, 2 if ruleset == "duel" else rng.choice([2, 3, 4]))
        how = rng.choice(["won"] * 6 + ["resign", "agreed"])
        when = START + timedelta(minutes=20 * n)  # some pairs meet more than 5 times a day
        rounds.append((play(table, when, ruleset, how), ruleset))
    assert Result.objects.filter(counted=False, void=False).exists()  # the 5-a-day rule bit

    removed = rng.sample(rounds, 4)
    moved = Result.objects.filter(round_id__in=[r for r, _ in removed], rating_mu__isnull=False)
    touched = set(moved.values_list("ruleset", flat=True))
    assert touched  # some of them moved ratings
    for round_id, _ in removed:
        remove_round(round_id)
    assert recalculating() == touched
    for ruleset in recalculating():
        assert replay_requested(ruleset).rounds > 0
    assert recalculating() == set()

    for ruleset in ("duel", "classic"):
        ratings, _ = stored(ruleset)
        expected = from_the_library(ruleset)
        assert {u: (mu, sigma, games) for u, (mu, sigma, _, games, _) in ratings.items()} == {
            u: expected.get(u, (25.0, 25.0 / 3, 0)) for u in ratings
        }
        # Removed rounds show no change any more; every other counted round does.
        removed_ids = {round_id for round_id, rs in removed if rs == ruleset}
        assert not Result.objects.filter(
            round_id__in=removed_ids, rating_change__isnull=False
        ).exists()

    before = {rs: stored(rs) for rs in ("duel", "classic")}
    call_command("recompute_ratings", "--check")  # nothing differs
    call_command("recompute_ratings")
    assert {rs: stored(rs) for rs in ("duel", "classic")} == before


def test_recompute_check_fails_when_a_stored_rating_is_not_what_the_results_give():
    ann, ben = accounts("ann", "ben")
    play([ann, ben], START)
    Rating.objects.filter(user=ann).update(mu=40.0, value=2400)
    with pytest.raises(CommandError, match="duel"):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings")
    call_command("recompute_ratings", "--check")
    assert Rating.objects.get(user=ann).value == Result.objects.get(user=ann).rating_change + 1500


def test_the_pairs_sixth_round_of_a_day_moves_no_rating():
    ann, ben = accounts("ann", "ben")
    for n in range(6):
        play([ann, ben], START + timedelta(minutes=n))
    sixth = Result.objects.filter(user=ann).order_by("-pk").first()
    assert (sixth.counted, sixth.rating_change) == (False, None)
    assert Rating.objects.get(user=ann).games == 5
    play([ann, ben], START + timedelta(days=1))  # the next day counts again
    assert Rating.objects.get(user=ann).games == 6


def test_removing_a_round_gives_back_the_ratings_as_if_it_was_never_played():
    ann, ben, cat = accounts("ann", "ben", "cat")
    play([ann, ben], START)
    upset = play([cat, ann], START + timedelta(hours=1))
    play([ben, cat], START + timedelta(hours=2))
    remove_round(upset)
    assert recalculating() == {"duel"}
    replay_ratings("duel")  # what the Celery worker runs
    assert recalculating() == set()

    ratings, _ = stored("duel")
    fresh = PlackettLuce()
    a, b = fresh.rate([[fresh.rating()], [fresh.rating()]])
    b2, c2 = fresh.rate([b, [fresh.rating()]])
    assert ratings[ann.pk][:2] == (a[0].mu, a[0].sigma)
    assert ratings[ben.pk][:2] == (b2[0].mu, b2[0].sigma)
    assert ratings[cat.pk][:2] == (c2[0].mu, c2[0].sigma)
    assert ratings[ann.pk][3] == 1  # one rated round left


def test_one_replay_per_rule_set_at_a_time():
    ann, ben = accounts("ann", "ben")
    remove_round(play([ann, ben], START))
    cache.add("leaderboard:replay-ratings:duel", "1", 60)  # another worker is replaying duel
    try:
        with pytest.raises(Retry):
            replay_ratings("duel")
        assert RatingReplay.objects.filter(ruleset="duel").exists()  # still to do
    finally:
        cache.delete("leaderboard:replay-ratings:duel")
    replay_ratings("duel")
    assert not RatingReplay.objects.exists()
    assert Rating.objects.get(user=ann).games == 0


def test_beat_does_a_replay_whose_task_was_lost_and_leaves_a_fresh_or_running_one_alone():
    ann, ben, cat = accounts("ann", "ben", "cat")
    play([ann, ben], START)
    remove_round(play([cat, ann], START + timedelta(hours=1)))  # duel: its task never runs
    remove_round(play([ann, cat], START + timedelta(hours=2), ruleset="classic"))
    assert finish_lost_replays() == []  # asked for seconds ago: its task may be on its way
    assert recalculating() == {"duel", "classic"}

    RatingReplay.objects.update(requested_at=timezone.now() - timedelta(minutes=2))
    cache.add("leaderboard:replay-ratings:classic", "1", 60)  # a worker is replaying classic
    try:
        assert finish_lost_replays() == ["duel"]
    finally:
        cache.delete("leaderboard:replay-ratings:classic")
    assert recalculating() == {"classic"}  # the pages stop saying "recalculating" for duel
    ratings, _ = stored("duel")
    assert {user: games for user, (*_, games, _) in ratings.items()} == {
        ann.pk: 1,
        ben.pk: 1,
        cat.pk: 0,
    }
    assert finish_lost_replays() == ["classic"]
    assert recalculating() == set()


def test_rounds_ending_while_a_replay_computes_keep_their_ratings(monkeypatch):
    ann, ben, cat, dan, eve, fay = accounts("ann", "ben", "cat", "dan", "eve", "fay")
    play([ann, ben], START)
    upset = play([cat, ann], START + timedelta(hours=1))
    play([ben, cat], START + timedelta(hours=2))
    remove_round(upset)

    # The first round the replay rates is the moment three rounds end: two players new to duel, two
    # who have played it, and a newcomer against one who has.
    real_model, armed = skill.model, [True]

    def rounds_end_meanwhile():
        if armed:
            armed.clear()
            later = START + timedelta(hours=3)
            play([dan, eve], later)
            play([ben, ann], later)
            play([fay, cat], later)
        return real_model()

    monkeypatch.setattr(skill, "model", rounds_end_meanwhile)
    replay_ratings("duel")
    assert not armed  # the rounds ended in the middle of the replay
    assert recalculating() == set()

    for newcomer in (dan, eve, fay):
        rating = Rating.objects.get(user=newcomer, ruleset="duel")
        change = Result.objects.get(user=newcomer).rating_change
        assert (rating.games, rating.value) == (1, 1500 + change), newcomer.username
    assert Rating.objects.get(user=ann, ruleset="duel").games == 2  # the removed round left
    call_command(
        "recompute_ratings", "--check"
    )  # what the incremental ratings are: what a replay gives


def test_a_round_taken_out_while_a_replay_runs_is_replayed_away_too(monkeypatch):
    ann, ben, cat = accounts("ann", "ben", "cat")
    upset = play([cat, ann], START)
    play([ann, ben], START + timedelta(hours=1))
    second_upset = play([cat, ben], START + timedelta(hours=2))
    play([ben, ann], START + timedelta(hours=3))
    remove_round(upset)

    # A moderator takes out another round while the replay rates: what it computed is stale, so it
    # writes nothing of it, and does the work again with both rounds out.
    real_model, armed = skill.model, [True]

    def removed_meanwhile():
        if armed:
            armed.clear()
            remove_round(second_upset)
        return real_model()

    monkeypatch.setattr(skill, "model", removed_meanwhile)
    replay_ratings("duel")
    assert not armed and recalculating() == set()
    assert Rating.objects.get(user=cat, ruleset="duel").games == 0
    assert not Result.objects.filter(user=cat, rating_change__isnull=False).exists()
    call_command("recompute_ratings", "--check")
