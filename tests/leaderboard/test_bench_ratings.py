"""bench/ratings.py's strengths: eight computer players, the strong bot's choice with probability p,
rated by the site's own function. The schedule gives every strength as many rounds, its games replay
exactly from their seeds, and its order figures (K, Kendall tau) are computed as stated; the whole
part runs on a tiny sample."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path

from leaderboard.ratings.skill import NEW_PLAYER, Skill, rate_places


def bench_ratings():
    path = Path(__file__).resolve().parents[2] / "bench" / "ratings.py"
    spec = importlib.util.spec_from_file_location("bench_ratings", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ratings"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = bench_ratings()


def test_the_strengths_run_from_random_to_strong_in_eight_steps():
    shares = [s.share for s in bench.STRENGTHS]
    assert len(shares) == 8 and shares[0] == 0.0 and shares[-1] == 1.0
    assert shares == sorted(shares) and len(set(shares)) == 8


def test_one_on_one_rounds_are_a_round_robin_with_starts_alternating():
    jobs = bench.schedule("twodice", 14, "s")
    assert len(jobs) == 14 * 4
    seats = Counter(i for _, table, _ in jobs for i in table)
    assert set(seats.values()) == {14}  # every strength plays every round
    met = Counter(frozenset(table) for _, table, _ in jobs)
    assert len(met) == 28 and set(met.values()) == {2}  # each pair twice in 14 rounds...
    starts = Counter(table for _, table, _ in jobs)
    assert set(starts.values()) == {1}  # ...each starting once
    assert bench.schedule("twodice", 5, "s") == jobs[:20]  # N rounds: the start of a longer run


def test_bigger_tables_seat_every_strength_once_a_round():
    jobs = bench.schedule("classic", 3, "s")
    assert [len(table) for _, table, _ in jobs] == [4] * 6
    for r in range(3):
        assert sorted(i for _, table, _ in jobs[2 * r : 2 * r + 2] for i in table) == list(range(8))


def test_a_game_replays_exactly_from_its_seed():
    job = ("twodice", (0, 7), "twodice/1/rated/0/0")
    first = bench.play(job)
    assert sorted(first) == [0, 7]
    assert bench.play(job) == first
    table = bench.play(("classic", (3, 1, 6, 4), "x"))
    assert sorted(table) == [1, 3, 4, 6]


def test_kendall_tau_and_the_strengths_at_their_rank():
    assert bench.kendall_tau(list(range(8))) == 1.0
    assert bench.kendall_tau(list(range(7, -1, -1))) == -1.0
    one_swap = [0, 1, 2, 4, 3, 5, 6, 7]
    assert bench.kendall_tau(one_swap) == (27 - 1) / 28  # neighbours swapped: still >= 0.9
    skills = [Skill(mu=20.0 + i) for i in one_swap]  # strength i at mu 20 + its place in one_swap
    assert bench.ordered(skills) == (6, 26 / 28)


def test_the_ratings_are_the_site_function_applied_in_order():
    games = [(1, 0), (2, 1, 3, 0), (0, 2)]
    skills = [NEW_PLAYER] * 8
    for places in games:
        after = rate_places([skills[i] for i in places])
        for i, s in zip(places, after, strict=True):
            skills[i] = s
    assert bench.rated(games) == skills
    # The weakest ahead of the next: the ratings it taught call it, the true order doesn't.
    assert bench.predicted(bench.rated([(0, 1)]), [(0, 1)]) == (100.0, 0.0)
    assert bench.predicted(bench.rated([(0, 1)]), [(1, 0)]) == (0.0, 100.0)


def test_the_strengths_part_runs_on_a_tiny_sample(capsys):
    args = argparse.Namespace(rulesets=["twodice", "classic"], rounds=2, held_out_rounds=1, seed=5)
    found = bench.strengths(args, None)
    out = capsys.readouterr().out
    assert set(found) == {"twodice", "classic"}
    for result in found.values():
        assert 0 <= result.right <= 8 and -1 <= result.tau <= 1
        assert (result.right == 8) == (result.tau == 1)
        assert 0 <= result.accuracy <= 100 and 0 <= result.ceiling <= 100
    assert "8 rated (2 rounds each), 4 held out" in out  # twodice: four games a round
    assert "4 rated (2 rounds each), 2 held out" in out  # classic: two tables of four
    assert all(f"{name}  rating" in out for name in (s.name for s in bench.STRENGTHS))
