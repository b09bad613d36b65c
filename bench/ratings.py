"""Do the ratings find who is stronger, and what do they cost? (docs/ratings.md)

    .venv/bin/python bench/ratings.py                     # everything (the replay: 100,000 rounds)
    .venv/bin/python bench/ratings.py --quick             # small samples, a 5,000-round replay
    .venv/bin/python bench/ratings.py --jobs 2            # the engine games on two processes

Three parts:

1. Strengths. Computer players of known, different strengths play seeded one-on-one games, played by
   the engine directly (no site): the `random`, `greedy` and `strong` bots, stronger in that order
   (bench/engine.py measures strong against the others). Each rule set asked
   (`--rulesets`, default twodice and classic) gets three sets of games, each pair of strengths
   equally often, who starts alternating: the rated games (rated in order by the site's own rating
   function, leaderboard.ratings.skill); ten times as many games for the empirical head-to-head win
   rates; and the held-out games both predict. A prediction picks the player the ratings put higher
   (or whose empirical head-to-head rate is over 50%); it is right when that player won.
2. U: the cost of a rating update inside `finish_round`: real rooms of 2 to 4 accounts, every player
   but one resigning (`do_resign`; the last resignation ends the round through `end_round` and
   `finish_round`, on PostgreSQL), timing the rating code that the round-end handler runs there
   (locking the players' rating rows, rating, writing the results' changes and the rows) apart from
   the rest of the round's end.
3. Replay: `--replay-rounds` rounds of one rule set (2 to 4 accounts each, from 2,000 players), their
   results inserted as counted rows, then the whole rule set replayed from its first round (what
   `manage.py recompute_ratings` and a removed round's replay run), timed, and checked against the
   stored ratings; and how long it held the rule set's lock that a round's end would wait on.

Parts 2 and 3 use PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/ludopat_ratings,
dropped and created anew, then migrated) and Redis (REDIS_URL, default redis://127.0.0.1:6379/11).

The last line reads `ratings: order right for K of K strengths, A% of held-out 1v1 results predicted,
U ms per update`, K and A for twodice (the other rule sets' figures are in their sections).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from itertools import combinations
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import engine  # noqa: E402
from games.engine.bots import ROLL_ACTION, choose_action  # noqa: E402
from leaderboard.ratings.skill import NEW_PLAYER, Skill, rate_places  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/ludopat_ratings"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/11"
SCRIPT = "bench/ratings.py"


@dataclass(frozen=True)
class Strength:
    name: str
    level: str  # the bot whose choice is played...
    share: float  # ...this often; `random`'s otherwise


# Weakest first: the order the ratings should find. (A fourth, `greedy` half the time and `random`
# otherwise, was as strong as `greedy` in twodice: 52% of 100 games, a coin toss that neither
# predictor can call, so it measured the held-out sample's luck, not the ratings.)
STRENGTHS = [
    Strength("random", "random", 1.0),
    Strength("greedy", "greedy", 1.0),
    Strength("strong", "strong", 1.0),
]
PLAYERS = {"twodice": [["red", "green"], ["yellow", "blue"]], "classic": [["red"], ["yellow"]]}
DICE = {"twodice": 2, "classic": 1}


def play(job: tuple[str, int, int, int]) -> int:
    """One seeded game between strengths `a` (seat 0) and `b`; the winner's strength index."""
    ruleset, a, b, seed = job
    rng = random.Random(f"{ruleset}/{a}/{b}/{seed}")
    seats = [STRENGTHS[a], STRENGTHS[b]]
    state = engine.new_game(ruleset, PLAYERS[ruleset], {})
    while state.status != engine.FINISHED:
        player = seats[state.turn]
        level = player.level if rng.random() < player.share else "random"
        action = choose_action(state, level, rng)
        if action == ROLL_ACTION:
            state, _ = engine.roll(state, [rng.randint(1, 6) for _ in range(DICE[ruleset])])
        else:
            state, _ = engine.apply_move(state, action)
    return (a, b)[state.places[0]]


def schedule(ruleset: str, per_pair: int, salt: int) -> list[tuple[str, int, int, int]]:
    """Each pair of strengths `per_pair` times, who starts alternating, in a shuffled order."""
    jobs = []
    for a, b in combinations(range(len(STRENGTHS)), 2):
        for n in range(per_pair):
            first, second = (a, b) if n % 2 == 0 else (b, a)
            jobs.append((ruleset, first, second, salt * 1_000_000 + n))
    random.Random(f"{ruleset}/{salt}").shuffle(jobs)
    return jobs


def played(pool: Pool | None, jobs: list[tuple[str, int, int, int]]) -> list[tuple[int, int, int]]:
    """(seat 0's strength, seat 1's, the winner's) per game, in the schedule's order."""
    winners = pool.map(play, jobs, chunksize=4) if pool else [play(job) for job in jobs]
    return [(a, b, w) for (_, a, b, _), w in zip(jobs, winners, strict=True)]


def strengths(args: argparse.Namespace, pool: Pool | None) -> dict[str, tuple[int, float, float]]:
    """Per rule set: (strengths in the right order, ratings' held-out accuracy, head-to-head's)."""
    out = {}
    pairs = len(STRENGTHS) * (len(STRENGTHS) - 1) // 2
    for ruleset in args.rulesets:
        started = time.perf_counter()
        rated = played(pool, schedule(ruleset, args.rated_per_pair, 1))
        head = played(pool, schedule(ruleset, 10 * args.rated_per_pair, 2))
        held = played(pool, schedule(ruleset, args.held_out_per_pair, 3))
        skills = dict.fromkeys(range(len(STRENGTHS)), NEW_PLAYER)
        for a, b, winner in rated:  # the site's rating function, game by game in order
            loser = b if winner == a else a
            skills[winner], skills[loser] = rate_places([skills[winner], skills[loser]])
        wins: dict[tuple[int, int], int] = defaultdict(int)
        for a, b, winner in head:
            wins[(winner, b if winner == a else a)] += 1
        picks = {
            "rating": [a if skills[a].mu > skills[b].mu else b for a, b, _ in held],
            "head": [a if wins[(a, b)] > wins[(b, a)] else b for a, b, _ in held],
        }
        accuracy = {
            name: 100 * sum(p == w for p, (_, _, w) in zip(pick, held, strict=True)) / len(held)
            for name, pick in picks.items()
        }
        ranked = sorted(skills, key=lambda i: skills[i].mu)
        right = sum(position == i for position, i in enumerate(ranked))
        print(f"== {ruleset}: {len(STRENGTHS)} strengths, one-on-one, {pairs} pairs")
        print(
            f"   games: {len(rated)} rated ({args.rated_per_pair} a pair), {len(head)} for the "
            f"head-to-head rates (10x), {len(held)} held out ({args.held_out_per_pair} a pair); "
            f"{time.perf_counter() - started:.0f} s"
        )
        for i in range(len(STRENGTHS)):
            s: Skill = skills[i]
            print(
                f"   {STRENGTHS[i].name:22s} rating {s.shown:5d}  (mu {s.mu:6.2f}, sigma {s.sigma:4.2f})"
            )
        for a, b in combinations(range(len(STRENGTHS)), 2):
            total = wins[(a, b)] + wins[(b, a)]
            print(
                f"   {STRENGTHS[b].name:>22s} beat {STRENGTHS[a].name:22s} in "
                f"{100 * wins[(b, a)] / total:5.1f}% of {total} head-to-head games"
            )
        print(f"   order right for {right} of {len(STRENGTHS)} strengths")
        print(
            f"   held-out results predicted: ratings {accuracy['rating']:.1f}%, empirical head-to-head "
            f"{accuracy['head']:.1f}% (target: ratings >= head-to-head - 3"
            f"{', and > 60' if ruleset == 'twodice' else ''}: "
            f"{'met' if accuracy['rating'] >= accuracy['head'] - 3 else 'MISSED'})"
        )
        print(
            f"   reproduce: {SCRIPT} --rulesets {ruleset} --rated-per-pair {args.rated_per_pair} "
            f"--held-out-per-pair {args.held_out_per_pair} --no-site"
        )
        out[ruleset] = (right, accuracy["rating"], accuracy["head"])
    return out


# --- the site's part: updates inside finish_round, and a replay --------------------------------------


def create_database(url: str) -> None:
    """The bench's own database, made anew. Refuses the shared `postgres` and `test` databases."""
    from urllib.parse import urlsplit

    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if name in ("postgres", "test", "test_postgres", "template0", "template1"):
        raise SystemExit(f"{SCRIPT} drops its database: give it its own, not {name!r}")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def timing_ratings() -> Iterator[list[float]]:
    """Time the rating code that `finish_round` runs (through the round-end handler's
    `record_played`): each round's lock of its rating rows plus its update, in ms."""
    from leaderboard import results

    spent: list[float] = []
    pending = [0.0]
    lock, rate = results.lock_ratings, results.rate_round

    def timed_lock(*a, **k):
        start = time.perf_counter()
        try:
            return lock(*a, **k)
        finally:
            pending[0] = time.perf_counter() - start

    def timed_rate(*a, **k):
        start = time.perf_counter()
        try:
            return rate(*a, **k)
        finally:
            spent.append(1000 * (pending[0] + time.perf_counter() - start))

    results.lock_ratings, results.rate_round = timed_lock, timed_rate
    try:
        yield spent
    finally:
        results.lock_ratings, results.rate_round = lock, rate


def updates(rounds: int, rng: random.Random) -> float:
    """Rated rounds ended by finish_round in real rooms; the median ms of their rating update."""
    from django.contrib.auth import get_user_model

    from games import actions
    from games.actions import Actor, SeatSpec
    from games.models import Game, Seat

    user_model = get_user_model()
    users = [user_model.objects.create_user(f"rated{n:03d}") for n in range(40)]
    actors = [Actor(u.pk, f"key-{u.pk}", u.username) for u in users]
    whole: list[float] = []
    with timing_ratings() as spent:
        for _ in range(rounds):
            count = rng.choice([2, 2, 3, 4])
            table = rng.sample(actors, count)
            game = actions.create_game(
                table[0],
                "friends",
                "classic",
                {},
                [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.OPEN)] * (count - 1),
            )
            for guest in table[1:]:
                actions.do_join(game.pk, guest)
            actions.do_start(game.pk, table[0])
            # All but one resign, in a random order: the last resignation ends the round (the
            # computer plays on for a resigned seat while two players are left).
            quitters = rng.sample(table, count - 1)
            for quitter in quitters[:-1]:
                actions.do_resign(game.pk, quitter)
            start = time.perf_counter()
            actions.do_resign(game.pk, quitters[-1])
            whole.append(1000 * (time.perf_counter() - start))
    assert len(spent) == rounds and Game.objects.filter(status="finished").count() == rounds
    median = statistics.median(spent)
    print(
        f"== U: rating updates inside finish_round ({rounds} rounds of 2 to 4 accounts, PostgreSQL)"
    )
    print(
        f"   rating update: median {median:.2f} ms, p99 {sorted(spent)[int(0.99 * len(spent))]:.2f} ms "
        f"(lock the rows, rate, write); the whole resignation that ends the round: median "
        f"{statistics.median(whole):.1f} ms"
    )
    print(f"   reproduce: {SCRIPT} --no-strengths --update-rounds {rounds}")
    return median


def holding_the_rule_set() -> list[float]:
    """From now on, how long each transaction held a rule set's ratings lock alone (seconds): the
    longest a round's end in it could wait on a replay."""
    from django.db import transaction

    from leaderboard.ratings import rebuild, replay

    held: list[float] = []
    take = replay.no_one_rating

    def timed(ruleset: str) -> None:
        take(ruleset)
        taken = time.perf_counter()
        transaction.on_commit(lambda: held.append(time.perf_counter() - taken))

    replay.no_one_rating = rebuild.no_one_rating = timed  # type: ignore[assignment]
    return held


def replay_time(count: int, rng: random.Random) -> None:
    """`count` rounds of classic among 2,000 players, then a replay of classic from scratch. The
    results are written as counted rows directly (bulk inserts: the replay reads only the results, and
    the standings' writer would take most of an hour for 100,000 rounds on a loaded machine)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, Round
    from leaderboard.models import Result
    from leaderboard.points import points_for
    from leaderboard.ratings.rating_replay import replay

    user_model = get_user_model()
    user_model.objects.bulk_create(
        [user_model(username=f"player{n:05d}", password="!") for n in range(2000)], batch_size=1000
    )
    users = list(
        user_model.objects.filter(username__startswith="player").values_list("pk", flat=True)
    )
    started = time.perf_counter()
    now = timezone.now()
    for first in range(0, count, 2000):
        size = min(2000, count - first)
        with transaction.atomic():
            games = Game.objects.bulk_create(
                [
                    Game(mode=Game.Mode.FRIENDS, ruleset="classic", status="finished")
                    for _ in range(size)
                ]
            )
            kept = Round.objects.bulk_create([Round(game=g, number=1, places=[]) for g in games])
            rows = []
            for n, kept_round in enumerate(kept):
                people = rng.sample(users, rng.choice([2, 2, 3, 4]))
                when = now - timedelta(seconds=count - first - n)
                for place, user_id in enumerate(people, start=1):
                    rows.append(
                        Result(
                            round=kept_round,
                            seat_index=place - 1,
                            user_id=user_id,
                            name=f"p{user_id}",
                            place=place,
                            players=len(people),
                            points=points_for(place, len(people)),
                            ruleset="classic",
                            against_people=True,
                            how="won",
                            counted=True,
                            finished_at=when,
                        )
                    )
            Result.objects.bulk_create(rows, batch_size=2000)
    wrote = time.perf_counter() - started
    counted = Result.objects.filter(ruleset="classic", counted=True).count()
    held = holding_the_rule_set()
    start = time.perf_counter()
    done = replay("classic")  # as the task runs it: in no transaction of the caller's
    took = time.perf_counter() - start
    again = replay("classic")  # the stored ratings are what the results give: nothing to write
    assert done is not None and again is not None  # no round was taken out meanwhile
    print(f"== replay: one rule set at {count:,} rounds ({counted:,} counted results, PostgreSQL)")
    print(
        f"   results written in {wrote:.0f} s; replayed from its first round in {took:.1f} s "
        f"({done.rounds:,} rated rounds, {done.results:,} results and {done.players:,} ratings "
        f"written: {1000 * took / max(done.rounds, 1):.2f} ms a round)"
    )
    print(
        "   the rule set's lock, which a round's end waits for, held for "
        + ", ".join(f"{1000 * s:.0f}" for s in held)
        + " ms (the first replay's moments, then the second's)"
    )
    print(f"   a second replay finds {again.results + again.players} differences (target 0)")
    print(f"   reproduce: {SCRIPT} --no-strengths --replay-rounds {count}")


def site(args: argparse.Namespace) -> float:
    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ.setdefault("REDIS_URL", DEFAULT_REDIS_URL)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludopat.settings")
    create_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    median = updates(args.update_rounds, rng)
    if args.replay_rounds:
        replay_time(args.replay_rounds, rng)
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples")
    parser.add_argument("--rulesets", default="twodice,classic")
    parser.add_argument("--rated-per-pair", type=int, help="rated games per pair of strengths (10)")
    parser.add_argument("--held-out-per-pair", type=int, help="held-out games per pair (30)")
    parser.add_argument("--update-rounds", type=int, help="rounds ended through finish_round (200)")
    parser.add_argument(
        "--replay-rounds", type=int, help="rounds in the replayed rule set (100000)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the engine games")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--no-site", action="store_true", help="the strengths only (no database)")
    parser.add_argument("--no-strengths", action="store_true", help="the site's part only")
    args = parser.parse_args()
    args.rulesets = args.rulesets.split(",")
    quick = args.quick
    args.rated_per_pair = args.rated_per_pair or (6 if quick else 10)
    args.held_out_per_pair = args.held_out_per_pair or (10 if quick else 30)
    args.update_rounds = args.update_rounds or (50 if quick else 200)
    args.replay_rounds = (
        args.replay_rounds if args.replay_rounds is not None else (5_000 if quick else 100_000)
    )
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the start"
    )

    found: dict[str, tuple[int, float, float]] = {}
    if not args.no_strengths:
        with Pool(args.jobs) if args.jobs > 1 else nullpool() as pool:
            found = strengths(args, pool)
    median = float("nan") if args.no_site else site(args)
    print(f"machine: load average {os.getloadavg()[0]:.1f} at the end")
    if found:
        right, _, _ = headline = found.get("twodice") or next(iter(found.values()))
        print(
            f"ratings: order right for {right} of {len(STRENGTHS)} strengths, "
            f"{headline[1]:.0f}% of held-out 1v1 results predicted, {median:.1f} ms per update"
        )
    return 0


@contextmanager
def nullpool() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    sys.exit(main())
