"""bench/live.py's command line and the arithmetic of a --before comparison: what each run is told, and
the medians the last line reports (the examples in its docstrings run here, as bench/ is outside the
suite's doctest paths)."""

from __future__ import annotations

import doctest
import math

import pytest

from tests.games.test_bench_live_reads import bench_live


def test_the_examples_in_the_bench_docstrings_hold():
    live = bench_live()
    result = doctest.testmod(live, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


def test_each_run_of_a_comparison_gets_the_command_line_without_before():
    live = bench_live()
    argv = ["--server", "daphne", "--quick", "--before", "/w/before", "--via", "ws", "--seats", "4"]
    child = live.without_before(argv)
    assert child == ["--server", "daphne", "--quick", "--via", "ws", "--seats", "4"]
    args = live.parse_args(child)
    assert (args.via, args.seats, args.before, args.servers) == ("ws", 4, None, ["daphne"])


def test_a_quick_comparison_fits_its_four_runs_in_twenty_minutes():
    live = bench_live()
    args = live.parse_args(["--server", "daphne", "--quick", "--before", "/w/before"])
    start_per_run = 40  # the database migrated and flushed, the accounts written: about 20 s here
    assert 4 * (args.budget + start_per_run) <= 20 * 60
    assert live.parse_args(["--quick", "--before", "/b", "--budget", "100"]).budget == 100


def test_the_median_of_two_runs_is_their_mean_and_a_run_that_measured_nothing_is_left_out():
    live = bench_live()
    assert live.median([20.0, 24.0]) == 22.0
    assert live.median([20.0, float("nan")]) == 20.0
    assert math.isnan(live.median([]))


def test_the_last_line_names_the_before_trees_web_cpu():
    live = bench_live()
    line = live.final_line(41.2, 25.0, 1.18, 15.04, 21.0)
    assert line == (
        "live p99=41 ms at 50 games, capacity 25 actions/s, cost ratio 1.18 vs floor, "
        "15.0 ms web CPU per action (21.0 before)"
    )


def test_the_seats_option_takes_two_to_four_players():
    live = bench_live()
    assert live.parse_args([]).seats == 2
    for wrong in (["--seats", "5"], ["--seats", "1"]):
        with pytest.raises(SystemExit):
            live.parse_args(wrong)


def _run(web: float, floor: float, p99: float, random_real: float, random_floor: float) -> dict:
    each = {"queries": 7.0, "redis_round_trips": 16.0, "full_board_renders": 3.0, "frames": 2.0}
    return {
        "p99": p99, "capacity": 25.0, "ratio": web / floor, "web": web, "floor": floor,
        "real_each": {**each, "cpu": web}, "floor_each": {"queries": 6.0, "cpu": floor},
        "random_p99": random_real, "floor_random_p99": random_floor,
        "tiers": {"web": web, "postgres*": 4.0}, "load_before": "1.0", "load_after": "1.2",
    }  # fmt: skip


def test_a_comparison_reports_each_trees_medians_and_the_last_line_from_them():
    live = bench_live()
    runs = [
        ("before", _run(30.0, 20.0, 60.0, 200.0, 100.0)),
        ("after", _run(20.0, 16.0, 40.0, 120.0, 100.0)),
        ("before", _run(34.0, 20.0, 70.0, 300.0, 100.0)),
        ("after", _run(22.0, 16.0, 50.0, 160.0, 80.0)),
    ]
    lines = live.compared(runs, {"before": "aaa", "after": "bbb"})
    assert lines[-1] == (
        "live p99=45 ms at 50 games, capacity 25 actions/s, cost ratio 1.31 vs floor, "
        "21.0 ms web CPU per action (32.0 before)"
    )
    after = next(line for line in lines if line.startswith("after (bbb), medians"))
    assert "full-board renders 3.0/nan" in after  # an older floor that counts no renders
    assert "random-phase p99 real/floor 1.60x" in after  # (1.2 + 2.0) / 2: the runs' own ratios
    assert any(line.startswith("after's web CPU per action / before's: 0.66x") for line in lines)
    assert len(lines[0].splitlines()) == 2 + 4  # the table: its head and one row per run


def test_the_50_game_window_takes_real_and_floor_slices_in_fours():
    live = bench_live()
    assert live.parse_args([]).slices == 4
    assert live.parse_args(["--slices", "8"]).slices == 8
    for wrong in (["--slices", "6"], ["--slices", "0"]):
        with pytest.raises(SystemExit):
            live.parse_args(wrong)
