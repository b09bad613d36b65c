"""Do the ratings find who is stronger, and what do they cost? (docs/ratings.md)

    .venv/bin/python bench/ratings.py                     # everything (the replay: 100,000 rounds)
    .venv/bin/python bench/ratings.py --quick             # small samples, a 5,000-round replay
    .venv/bin/python bench/ratings.py --jobs 2            # the engine games on two processes
    .venv/bin/python bench/ratings.py --rulesets twodice --tune 7,14,28,56,105,140 --jobs 2
                                                          # how many rated rounds find the order

Three parts:

1. Strengths. Eight computer players of known, graded strengths: each decision is the `strong` bot's
   with probability p, a random legal one (the `random` bot's) otherwise, p = 0, 1/7, ..., 1, weakest
   first. They play seeded games through the engine directly (no site), for each rule set asked
   (`--rulesets`, default twodice and classic) at the biggest table it seats: twodice one-on-one, as a
   round robin (every 7 rounds each pair has met once, who starts alternating by cycle); classic at
   two tables of four drawn anew each round. Every strength plays `--rounds` (N) rated rounds, rated
   in order by the site's own rating function (leaderboard.ratings.skill.rate_places); the order of
   their rating means against the true order of p gives K (strengths at their true rank) and Kendall's
   tau. Then `--held-out-rounds` more rounds each, not rated, are predicted: for every pair of players
   of a held-out game, the one rated higher should finish ahead; beside that, how often the true order
   of p calls it (what knowing each player's strength would predict: about the most a rating can).
   `--tune 7,14,...` plays instead the rated rounds of the biggest N for each of the tuning seeds
   (`--tune-seeds`, default 1-10, apart from the reported `--seed` 23) and prints Kendall's tau after
   each N: how the default N was chosen.
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

The last line reads `ratings: order right for K of 8 strengths (Kendall tau T after N rated rounds
each), A% of held-out results predicted, U ms per update`, K, T and A for twodice (the other rule
sets' figures are in their sections).
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
    share: float  # how often the strong bot's choice is played; a random legal one otherwise


# Weakest first: the order the ratings should find. p = 0 is the `random` bot, p = 1 the `strong` one.
STRENGTHS = [Strength(f"p={k / 7:.2f}", k / 7) for k in range(8)]
DICE = {"twodice": 2, "classic": 1}
ROUNDS = 140  # rated rounds each by default: tuned over seeds 1-10 (docs/ratings.md, "Measured")
# Rated rounds are played at the biggest table the rule set seats: twodice one-on-one, classic at
# tables of four (rate_places with four places, as the site rates a full table).
Job = tuple[str, tuple[int, ...], str]  # rule set, the strengths in seat order, the game's seed


def play(job: Job) -> tuple[int, ...]:
    """One seeded game; the strengths in finishing order. Each decision (a roll or a move) is the
    strong bot's with the player's probability p, else the random bot's; one generator seeded by the
    job draws those coins, the random bot's picks and the dice, so a job always plays the same game."""
    ruleset, table, seed = job
    rng = random.Random(seed)
    state = engine.new_game(ruleset, engine.seat_colours(ruleset, len(table)), {})
    while state.status != engine.FINISHED:
        level = "strong" if rng.random() < STRENGTHS[table[state.turn]].share else "random"
        action = choose_action(state, level, rng)
        if action == ROLL_ACTION:
            state, _ = engine.roll(state, [rng.randint(1, 6) for _ in range(DICE[ruleset])])
        else:
            state, _ = engine.apply_move(state, action)
    return tuple(table[seat] for seat in state.places)


def table_size(ruleset: str) -> int:
    return engine.seat_counts(ruleset)[-1]


def schedule(ruleset: str, rounds: int, seed: str) -> list[Job]:
    """`rounds` rounds in which every strength plays once.

    One-on-one: the circle method's round robin, so every 7 rounds each pair has met once, and who
    starts a pair's game alternates from one cycle to the next. Bigger tables: each round the eight
    are shuffled into tables (the seat order is the turn order). A schedule of N rounds is the start
    of any longer one with the same seed, so the ratings after N rounds can be read off a longer run.
    """
    count, size = len(STRENGTHS), table_size(ruleset)
    jobs: list[Job] = []
    circle = list(range(count))
    for r in range(rounds):
        if size == 2:
            flip = (r // (count - 1)) % 2
            tables = [(circle[i], circle[-1 - i]) for i in range(count // 2)]
            tables = [(b, a) if flip else (a, b) for a, b in tables]
            circle = circle[:1] + circle[-1:] + circle[1:-1]
        else:
            order = list(range(count))
            random.Random(f"{ruleset}/{seed}/{r}/tables").shuffle(order)
            tables = [tuple(order[i : i + size]) for i in range(0, count, size)]
        jobs += [(ruleset, t, f"{ruleset}/{seed}/{r}/{n}") for n, t in enumerate(tables)]
    return jobs


def played(pool: Pool | None, jobs: list[Job]) -> list[tuple[int, ...]]:
    """Each game's strengths in finishing order, in the schedule's order."""
    return pool.map(play, jobs, chunksize=4) if pool else [play(job) for job in jobs]


def rated(games: list[tuple[int, ...]]) -> list[Skill]:
    """The strengths' skills after the games, rated in order by the site's own rating function."""
    skills = [NEW_PLAYER] * len(STRENGTHS)
    for places in games:
        for who, after in zip(places, rate_places([skills[i] for i in places]), strict=True):
            skills[who] = after
    return skills


def kendall_tau(found: list[int]) -> float:
    """Kendall's tau (no ties) between the order `found` (strength indices, weakest first) and the
    true one: (pairs in the right order - pairs in the wrong one) / pairs."""
    pairs = list(combinations(found, 2))
    return sum(1 if a < b else -1 for a, b in pairs) / len(pairs)


def ordered(skills: list[Skill]) -> tuple[int, float]:
    """(strengths at their true rank, Kendall tau) of the order of the rating means, weakest first.
    Means, not the conservative mu - 3 sigma: every strength has played as often, so their sigmas
    are alike, and the site shows the mean."""
    found = sorted(range(len(skills)), key=lambda i: skills[i].mu)
    return sum(rank == i for rank, i in enumerate(found)), kendall_tau(found)


def predicted(skills: list[Skill], games: list[tuple[int, ...]]) -> tuple[float, float]:
    """Of every pair of players in the held-out games, the % in which the one rated higher finished
    ahead; and the % the true strengths' order calls (about the most a rating can)."""
    calls = [
        (skills[a].mu > skills[b].mu, a > b) for places in games for a, b in combinations(places, 2)
    ]
    return (
        100 * sum(rating for rating, _ in calls) / len(calls),
        100 * sum(truth for _, truth in calls) / len(calls),
    )


@dataclass(frozen=True)
class Found:
    right: int
    tau: float
    accuracy: float
    ceiling: float


def strengths(args: argparse.Namespace, pool: Pool | None) -> dict[str, Found]:
    """Per rule set: the order the ratings find after `--rounds` rated rounds each, and how well they
    predict the held-out games."""
    out = {}
    for ruleset in args.rulesets:
        started = time.perf_counter()
        games = played(pool, schedule(ruleset, args.rounds, f"{args.seed}/rated"))
        held = played(pool, schedule(ruleset, args.held_out_rounds, f"{args.seed}/held-out"))
        skills = rated(games)
        right, tau = ordered(skills)
        accuracy, ceiling = predicted(skills, held)
        size = table_size(ruleset)
        print(
            f"== {ruleset}: {len(STRENGTHS)} strengths (the strong bot's choice with probability p, "
            f"else a random one), {'one-on-one' if size == 2 else f'tables of {size}'}"
        )
        print(
            f"   games: {len(games)} rated ({args.rounds} rounds each), {len(held)} held out "
            f"({args.held_out_rounds} rounds each); {time.perf_counter() - started:.0f} s"
        )
        for i, s in enumerate(skills):
            print(
                f"   {STRENGTHS[i].name}  rating {s.shown:5d}  (mu {s.mu:6.2f}, sigma {s.sigma:4.2f})"
            )
        print(f"   order right for {right} of {len(STRENGTHS)} strengths, Kendall tau {tau:.2f}")
        print(
            f"   held-out results predicted (each pair of players of a held-out game: who finished "
            f"ahead): ratings {accuracy:.1f}%, the true order {ceiling:.1f}%"
        )
        print(
            f"   reproduce: {SCRIPT} --rulesets {ruleset} --rounds {args.rounds} "
            f"--held-out-rounds {args.held_out_rounds} --seed {args.seed} --no-site"
        )
        out[ruleset] = Found(right, tau, accuracy, ceiling)
    return out


def tune(args: argparse.Namespace, pool: Pool | None) -> None:
    """For each tuning seed, the rated rounds of the longest N asked, and the order after each N
    asked (a shorter schedule is the start of a longer one): how many rounds the ratings need."""
    checkpoints = sorted(int(n) for n in args.tune.split(","))
    first, last = (int(n) for n in args.tune_seeds.split("-"))
    seeds = range(first, last + 1)
    for ruleset in args.rulesets:
        per_table = table_size(ruleset)
        found: dict[int, list[tuple[int, float]]] = defaultdict(list)
        started = time.perf_counter()
        for seed in seeds:
            games = played(pool, schedule(ruleset, checkpoints[-1], f"{seed}/rated"))
            per_round = len(STRENGTHS) // per_table
            for n in checkpoints:
                found[n].append(ordered(rated(games[: n * per_round])))
        print(
            f"== tuning {ruleset}: seeds {first}-{last} ({len(seeds)} runs), "
            f"{time.perf_counter() - started:.0f} s"
        )
        for n in checkpoints:
            taus = [tau for _, tau in found[n]]
            print(
                f"   N {n:4d}: Kendall tau mean {statistics.mean(taus):.2f}, lowest {min(taus):.2f}, "
                f">= 0.9 in {sum(t >= 0.9 for t in taus)} of {len(taus)}; order right for "
                f"{statistics.mean(r for r, _ in found[n]):.1f} of {len(STRENGTHS)} on average"
            )


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
    parser.add_argument("--rounds", type=int, help="rated rounds each strength plays (N, 140)")
    parser.add_argument(
        "--held-out-rounds", type=int, help="held-out rounds each strength plays (70)"
    )
    parser.add_argument("--update-rounds", type=int, help="rounds ended through finish_round (200)")
    parser.add_argument(
        "--replay-rounds", type=int, help="rounds in the replayed rule set (100000)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the engine games")
    parser.add_argument("--seed", type=int, default=23, help="the games' and the site part's seed")
    parser.add_argument(
        "--tune", help="N values (2,7,...): the order after each, over --tune-seeds"
    )
    parser.add_argument("--tune-seeds", default="1-10", help="tuning seeds, apart from --seed")
    parser.add_argument("--no-site", action="store_true", help="the strengths only (no database)")
    parser.add_argument("--no-strengths", action="store_true", help="the site's part only")
    args = parser.parse_args()
    args.rulesets = args.rulesets.split(",")
    quick = args.quick
    args.rounds = args.rounds or (14 if quick else ROUNDS)
    args.held_out_rounds = args.held_out_rounds or (14 if quick else 70)
    args.update_rounds = args.update_rounds or (50 if quick else 200)
    args.replay_rounds = (
        args.replay_rounds if args.replay_rounds is not None else (5_000 if quick else 100_000)
    )
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the start"
    )

    found: dict[str, Found] = {}
    if args.tune:
        with Pool(args.jobs) if args.jobs > 1 else nullpool() as pool:
            tune(args, pool)
        return 0
    if not args.no_strengths:
        with Pool(args.jobs) if args.jobs > 1 else nullpool() as pool:
            found = strengths(args, pool)
    median = float("nan") if args.no_site else site(args)
    print(f"machine: load average {os.getloadavg()[0]:.1f} at the end")
    if found:
        head = found.get("twodice") or next(iter(found.values()))
        print(
            f"ratings: order right for {head.right} of {len(STRENGTHS)} strengths (Kendall tau "
            f"{head.tau:.2f} after {args.rounds} rated rounds each), {head.accuracy:.0f}% of held-out "
            f"results predicted, {median:.1f} ms per update"
        )
    return 0


@contextmanager
def nullpool() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    sys.exit(main())
