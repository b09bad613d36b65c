"""What the burst check asks of one process, worked out from bench/live.py's own random phases.

    .venv/bin/python bench/burst_model.py                # costs 8 to 32 ms of CPU per action
    .venv/bin/python bench/burst_model.py --cost 14.6    # one cost (say, the floor's, from live.py)

`bench/live.py --arrivals random` gives each of its 50 games a random phase in the 2 s interval
(`random_offsets`, seed 1), and the same bursts come back every interval. This feeds those
arrivals to one server that needs `cost` ms of CPU per action, as a queue in two ways: first come,
first served (one action at a time), and processor sharing (every action in the process at once, as
threads under the GIL share one core), and prints the p50 and p99 latency of each, beside the steady
window's p99 (`steady`: the even phases, one action at a time, as the bench measured it: about 1.6
times the cost, plus the client's few ms). The burst check asks p99 at random phases <= 2 x steady.

A model, not a measurement: one core, a fixed cost per action, nothing else running. It says what an
action may cost for the check to pass whatever the code does, and bench/live.py's `floor random` row
says what the stack's cheapest action does with the same bursts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.live import random_offsets  # the bench's own phases

GAMES = 50
INTERVAL_MS = 2000.0
CYCLES = 6  # intervals fed through; the first is dropped (the queue starts empty)
# The client's own part of each latency (framing, parsing), about what live.py shows.
CLIENT_MS = 3.0


def arrivals(seed: int) -> list[float]:
    """The bench's random phases (bench/live.py), repeated every interval."""
    offsets = sorted(random_offsets(seed, GAMES, INTERVAL_MS))
    return [o + k * INTERVAL_MS for k in range(CYCLES) for o in offsets]


def first_come(times: list[float], cost: float) -> list[float]:
    free, latencies = 0.0, []
    for t in times:
        free = max(free, t) + cost
        latencies.append(free - t + CLIENT_MS)
    return latencies


def shared(times: list[float], cost: float, step: float = 0.05) -> list[float]:
    """Egalitarian processor sharing, in steps of `step` ms."""
    pending = list(times)
    active: list[list[float]] = []  # [arrival, work left]
    now, latencies = 0.0, []
    while pending or active:
        if not active and pending[0] > now:
            now = pending[0]
        while pending and pending[0] <= now:
            active.append([pending.pop(0), cost])
        for job in active:
            job[1] -= step / len(active)
        now += step
        for job in [j for j in active if j[1] <= 0]:
            latencies.append(now - job[0] + CLIENT_MS)
            active.remove(job)
    return latencies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cost", type=float, action="append", help="ms of CPU per action")
    parser.add_argument("--seed", type=int, default=1, help="bench/live.py's --seed")
    args = parser.parse_args()
    times = arrivals(args.seed)
    print(f"{GAMES} games at bench/live.py's random phases (seed {args.seed}), one core")
    print(f"{'cost ms':>8} {'steady p99':>11} | {'first come: p50':>16} {'p99':>5} {'x':>5} | "
          f"{'shared: p50':>12} {'p99':>5} {'x':>5}")  # fmt: skip
    for cost in args.cost or [8, 10, 12, 15, 20, 24, 28, 32]:
        steady = 1.6 * cost + CLIENT_MS
        row = f"{cost:8.1f} {steady:11.0f} |"
        for way in (first_come, shared):
            lat = way(times, cost)[GAMES:]  # the first interval's queue started empty
            p50, p99 = percentile(lat, 50), percentile(lat, 99)
            row += f" {p50:16.0f} {p99:5.0f} {p99 / steady:5.2f} |"
        print(row.rstrip(" |"))
    print("the burst check passes where x <= 2 (bench/live.py measures it; this is the arithmetic)")


if __name__ == "__main__":
    main()
