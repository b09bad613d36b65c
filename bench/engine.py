"""Benchmark the rules engine and the bots.

    .venv/bin/python bench/engine.py            # everything (several minutes)
    .venv/bin/python bench/engine.py --quick    # a short run with small samples

Sections (`--sections`, comma separated; `speed` always runs, because the last line is its ratio):

- speed: complete random 4-player classic games (uniformly random legal choices, to the first winner)
  with our engine, ludopy 1.5.0 and ludo-king-engine 0.1.3, in one process pinned to one CPU: games/s,
  token moves/s, peak traced memory, and the ratios. Both libraries are pip-installed into the running
  interpreter's environment if missing (ludopy with --no-deps plus numpy and opencv-python-headless:
  its import needs cv2).
- replay: a JSON Lines batch of random games replayed by `python -m games.engine replay` (subprocess)
  and in-process (`replay.replay_text`).
- decisions: the `strong` bot's decision time (median, p99, max) in every rule set and option, with
  `twodice` double-six hands (four or more dice in the hand) on their own line.
- winrates: strong against random and against greedy over two-player games of `classic` and `twodice`,
  alternating who starts.

Every figure is printed with the command that reproduces it. The last line reads
`ratio vs ludopy: R`, R being our games/s over ludopy's in the same run.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import engine  # noqa: E402
from games.engine.bots import ROLL_ACTION, choose_action  # noqa: E402
from games.engine.replay_command import replay_text  # noqa: E402

SCRIPT = ".venv/bin/python bench/engine.py"
FOUR = [["red"], ["green"], ["yellow"], ["blue"]]
TARGET_SPEED = 3.0
TARGET_P99_MS = 20.0
TARGET_VS_RANDOM = 0.90
TARGET_VS_GREEDY = 0.55


# --- installing the libraries we compare with ------------------------------------------------------


def _installed(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *args], check=True)


def ensure_libraries() -> None:
    """pip-install ludopy 1.5.0 and ludo-king-engine 0.1.3 into this interpreter if they are missing."""
    if _installed("ludopy") != "1.5.0":
        # ludopy declares opencv-python (GUI build); the headless build provides the same cv2 module.
        _pip("--no-deps", "ludopy==1.5.0")
    # ludopy imports cv2 (for its video helpers) and numpy (for its dice and boards).
    needed = [
        dist
        for dist, module in (("numpy", "numpy"), ("opencv-python-headless", "cv2"))
        if importlib.util.find_spec(module) is None
    ]
    if needed:
        _pip(*needed)
    if _installed("ludo-king-engine") != "0.1.3":
        _pip("ludo-king-engine==0.1.3")
    importlib.invalidate_caches()


def pin_to_one_cpu() -> int:
    """Run on one CPU so the three engines are measured under the same conditions."""
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


# --- one random 4-player classic game per engine ---------------------------------------------------


def ours_game(rng: random.Random, actions: list | None = None) -> int:
    """A random game with our engine; returns the number of token moves. Records actions if asked."""
    state = engine.new_game("classic", FOUR)
    moves = 0
    legal_moves, apply_move, roll = engine.legal_moves, engine.apply_move, engine.roll
    while state.status != engine.FINISHED:
        if state.awaiting == engine.ROLL:
            die = rng.randint(1, 6)
            state, _ = roll(state, (die,))
            if actions is not None:
                actions.append({"roll": [die]})
        else:
            legal = legal_moves(state)
            chosen = legal[rng.randrange(len(legal))]
            state, _ = apply_move(state, chosen)
            moves += 1
            if actions is not None:
                actions.append({"move": {"token": [chosen.colour, chosen.index]}})
    return moves


def ludopy_game(rng: random.Random) -> int:
    """A random game of ludopy 1.5.0 (its dice come from numpy's global generator)."""
    import ludopy

    game = ludopy.Game()
    moves = 0
    winner = False
    while not winner:
        (_, movable, _, _, _, winner), _ = game.get_observation()
        if len(movable):
            piece = movable[rng.randrange(len(movable))]
            moves += 1
        else:
            piece = -1
        _, _, _, _, _, winner = game.answer_observation(piece)
    return moves


def ludo_king_game(rng: random.Random) -> int:
    """A random game of ludo-king-engine 0.1.3 (its dice come from the `random` module)."""
    from ludo_engine import LudoGame, PlayerColor

    game = LudoGame([PlayerColor.RED, PlayerColor.GREEN, PlayerColor.YELLOW, PlayerColor.BLUE])
    moves = 0
    while not game.game_over:
        player = game.get_current_player()
        dice = game.roll_dice()
        token = None
        # Its get_valid_moves resets a run of three 6s; leave that case to play_turn, which forfeits.
        if game.consecutive_sixes < 3:
            valid = game.get_valid_moves(player, dice)
            if valid:
                token = valid[rng.randrange(len(valid))].token_id
        result = game.play_turn(token_id=token, dice_value=dice)
        moves += sum(1 for m in result.moves if m.success)
    return moves


def seed_all(seed: int) -> random.Random:
    import numpy

    numpy.random.seed(seed)
    random.seed(seed)
    return random.Random(seed)


def peak_memory(play: Callable[[random.Random], int], games: int, seed: int) -> float:
    """Peak traced memory (KiB) over a few games, on a separate run: tracing slows everything down."""
    rng = seed_all(seed)
    tracemalloc.start()
    for _ in range(games):
        play(rng)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def time_engines(
    engines: dict[str, Callable[[random.Random], int]], games: int, seed: int, rounds: int = 10
) -> dict[str, dict[str, float]]:
    """Games/s and moves/s per engine. The games are played in interleaved rounds (each round a slice
    of every engine's games, in rotating order) so a change in machine load hits all engines alike."""
    elapsed = dict.fromkeys(engines, 0.0)
    moves = dict.fromkeys(engines, 0)
    played = dict.fromkeys(engines, 0)
    rngs = {name: random.Random(f"{seed}/{name}") for name in engines}
    names = list(engines)
    for r in range(rounds):
        share = games // rounds + (1 if r < games % rounds else 0)
        for name in names[r % len(names) :] + names[: r % len(names)]:
            play, rng = engines[name], rngs[name]
            seed_all(seed * 1000 + r)  # the libraries' own dice generators
            start = time.perf_counter()
            for _ in range(share):
                moves[name] += play(rng)
            elapsed[name] += time.perf_counter() - start
            played[name] += share
    return {
        name: {
            "games_s": played[name] / elapsed[name],
            "moves_s": moves[name] / elapsed[name],
            "moves_game": moves[name] / played[name],
            "peak_kib": peak_memory(engines[name], max(1, games // 50), seed + 1),
        }
        for name in engines
    }


def speed(args: argparse.Namespace) -> float:
    ensure_libraries()
    cpu = pin_to_one_cpu()
    n = args.games
    command = f"{SCRIPT} --sections speed --games {n}"
    print(f"== speed: random 4-player classic games, to the first winner, pinned to CPU {cpu}")
    print(f"   reproduce: {command}")
    engines = {
        "ludopat": ours_game,
        "ludopy 1.5.0": ludopy_game,
        "ludo-king-engine 0.1.3": ludo_king_game,
    }
    for play in engines.values():
        play(random.Random(0))  # warm up imports and caches
    results = time_engines(engines, n, args.seed)
    for name, r in results.items():
        print(
            f"   {name:24s} {r['games_s']:9.1f} games/s  {r['moves_s']:10.0f} moves/s  "
            f"{r['moves_game']:6.1f} moves/game  peak {r['peak_kib']:8.1f} KiB traced"
        )
    ours = results["ludopat"]
    for name in ("ludopy 1.5.0", "ludo-king-engine 0.1.3"):
        other = results[name]
        g = ours["games_s"] / other["games_s"]
        m = ours["moves_s"] / other["moves_s"]
        ok = "met" if min(g, m) >= TARGET_SPEED else "MISSED"
        print(
            f"   ours / {name}: {g:.2f}x games/s, {m:.2f}x moves/s "
            f"(target >= {TARGET_SPEED:.0f}x: {ok})"
        )
    return ours["games_s"] / results["ludopy 1.5.0"]["games_s"]


# --- replay throughput ---------------------------------------------------------------------------


def replay(args: argparse.Namespace) -> None:
    n = args.replay_games
    command = f"{SCRIPT} --sections replay --replay-games {n}"
    print(f"== replay: JSON Lines batch of {n} random 4-player classic games")
    print(f"   reproduce: {command}")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="ludopat-bench-") as tmp:
        path = Path(tmp) / "batch.jsonl"
        with path.open("w") as out:
            for _ in range(n):
                actions: list = []
                ours_game(rng, actions)
                record = {
                    "format": "ludopat-record/1",
                    "ruleset": "classic",
                    "players": FOUR,
                    "actions": actions,
                }
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
        size = path.stat().st_size / 2**20
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "games.engine", "replay", str(path)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            check=False,
        )
        sub = time.perf_counter() - start
        print(
            f"   subprocess  python -m games.engine replay batch.jsonl ({size:.1f} MiB): "
            f"{n / sub:8.1f} games/s ({sub:.2f} s, exit {done.returncode})"
        )
        text = path.read_text()
        start = time.perf_counter()
        _, results = replay_text(text)
        inproc = time.perf_counter() - start
        bad = sum(1 for _, code in results if code != 0)
        print(
            f"   in-process  replay.replay_text(batch):             "
            f"{n / inproc:8.1f} games/s ({inproc:.2f} s, {bad} errors)"
        )


# --- the strong bot ------------------------------------------------------------------------------

CONFIGS = {
    "classic": ("classic", [["red"], ["yellow"]], {}),
    "duel": ("duel", [["red"], ["blue"]], {}),
    "places": ("places", FOUR, {}),
    "places+pairs": ("places", FOUR, {"pairs": True}),
    "places+hold": ("places", FOUR, {"hold": True}),
    "twodice": ("twodice", [["red", "green"], ["yellow", "blue"]], {}),
}


def play_bots(
    config: str, levels: list[str], rng: random.Random, timings: list | None = None
) -> engine.State:
    """A whole game with bots in every seat; optionally times each decision with a move to choose,
    as (wall-clock ms, CPU ms of this process, dice in the hand). CPU time shows the bot's own cost when
    other processes share the machine."""
    ruleset, players, options = CONFIGS[config]
    dice = 2 if ruleset == "twodice" else 1
    state = engine.new_game(ruleset, players, options)
    clock, cpu_clock = time.perf_counter, time.process_time
    while state.status != engine.FINISHED:
        deciding = state.awaiting == engine.MOVE
        start, cpu_start = clock(), cpu_clock()
        action = choose_action(state, levels[state.turn], rng)
        elapsed, cpu = clock() - start, cpu_clock() - cpu_start
        if action == ROLL_ACTION:
            state, _ = engine.roll(state, [rng.randint(1, 6) for _ in range(dice)])
            continue
        if timings is not None and deciding and levels[state.turn] == "strong":
            timings.append((elapsed * 1000, cpu * 1000, len(state.dice)))
        state, _ = engine.apply_move(state, action)
    return state


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def decisions(args: argparse.Namespace) -> None:
    n = args.decision_games
    load = os.getloadavg()[0]
    print(f"== strong bot decision time ({n} games per rule set, strong in every seat)")
    print(
        f"   load average {load:.1f} on {os.cpu_count()} CPUs at the start (wall-clock times include it)"
    )
    print(f"   reproduce: {SCRIPT} --sections decisions --decision-games {n}")
    rng = random.Random(args.seed)
    worst = 0.0
    for config in CONFIGS:
        timings: list[tuple[float, float, int]] = []
        for _ in range(n):
            play_bots(config, ["strong"] * len(CONFIGS[config][1]), rng, timings)
        rows = [(config, timings)]
        if config == "twodice":
            rows.append(("twodice double-six hands", [t for t in timings if t[2] >= 4]))
        for name, sample in rows:
            if not sample:
                print(f"   {name:26s} no decisions sampled")
                continue
            wall = [t[0] for t in sample]
            p99 = _quantile(wall, 0.99)
            worst = max(worst, p99)
            print(
                f"   {name:26s} median {statistics.median(wall):6.2f} ms  p99 {p99:6.2f} ms  "
                f"max {max(wall):7.2f} ms  (CPU time p99 {_quantile([t[1] for t in sample], 0.99):6.2f} ms; "
                f"{len(sample)} decisions)"
            )
    ok = "met" if worst < TARGET_P99_MS else "MISSED"
    print(f"   worst p99 {worst:.2f} ms (target < {TARGET_P99_MS:.0f} ms: {ok})")


def winrates(args: argparse.Namespace) -> None:
    n = args.winrate_games
    print(f"== strong bot win rates ({n} two-player games each, alternating who starts)")
    print(f"   reproduce: {SCRIPT} --sections winrates --winrate-games {n}")
    for config in ("classic", "twodice"):
        for opponent, target in (("random", TARGET_VS_RANDOM), ("greedy", TARGET_VS_GREEDY)):
            rng = random.Random(f"{args.seed}/{config}/{opponent}")
            wins = 0
            start = time.perf_counter()
            for game in range(n):
                levels = ["strong", opponent] if game % 2 == 0 else [opponent, "strong"]
                winner = play_bots(config, levels, rng).places[0]
                wins += levels[winner] == "strong"
            rate = wins / n
            margin = 1.96 * math.sqrt(rate * (1 - rate) / n)
            ok = "met" if rate >= target else "MISSED"
            print(
                f"   {config:8s} strong vs {opponent:6s}: {rate:6.1%} +- {margin:.1%} (95%)  "
                f"target >= {target:.0%}: {ok}  ({time.perf_counter() - start:.0f} s)"
            )


# --- main ---------------------------------------------------------------------------------------

SECTIONS = {"speed": None, "replay": replay, "decisions": decisions, "winrates": winrates}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small samples for a short run")
    parser.add_argument("--games", type=int, help="random games per engine for speed (1000)")
    parser.add_argument("--replay-games", type=int, help="games in the replay batch (10000)")
    parser.add_argument("--decision-games", type=int, help="games per rule set for timing (100)")
    parser.add_argument("--winrate-games", type=int, help="games per win-rate pairing (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"comma-separated, from {','.join(SECTIONS)} (speed always runs)",
    )
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "games": (100, 1000),
        "replay_games": (500, 10000),
        "decision_games": (10, 100),
        "winrate_games": (100, 2000),
    }
    for key, (small, full) in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, small if quick else full)
    args.sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    ratio = speed(args)
    for name in args.sections:
        section = SECTIONS[name]
        if section is not None:
            section(args)
    print(f"ratio vs ludopy: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
