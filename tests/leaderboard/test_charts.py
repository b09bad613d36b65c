"""The player page's charts as numbers a player reads: one row per period with its points and the
running total, at most twelve rows however long the history; places counted per rule set."""

from __future__ import annotations

from datetime import date, timedelta

from leaderboard.charts import MAX_ROWS, places_table, points_by_period


def test_a_single_week_is_one_row_with_its_date_in_words_and_its_points():
    chart = points_by_period([(date(2026, 11, 23), 20)])
    assert chart["unit"] == "week"
    [row] = chart["rows"]
    assert (row.label, row.points, row.total, row.percent) == ("23 Nov 2026", 20, 20, "100.0")
    assert "2026-11-23" not in row.label


def test_a_few_weeks_stay_weeks_newest_first_with_running_totals():
    monday = date(2026, 11, 2)
    chart = points_by_period(
        [(monday, 10), (monday + timedelta(weeks=1), 0), (monday + timedelta(weeks=3), 6)]
    )
    assert [(r.label, r.points, r.total) for r in chart["rows"]] == [
        ("23 Nov 2026", 6, 16),
        ("9 Nov 2026", 0, 10),
        ("2 Nov 2026", 10, 10),
    ]
    assert chart["rows"][1].percent == "0.0"


def test_a_long_history_is_grouped_by_month_then_year_and_keeps_twelve_rows():
    start = date(2025, 1, 6)
    weeks = [(start + timedelta(weeks=n), 10) for n in range(40)]  # about nine months
    chart = points_by_period(weeks)
    assert chart["unit"] == "month" and chart["rows"][0].label == "Oct 2025"
    assert chart["rows"][0].total == 400 and sum(r.points for r in chart["rows"]) == 400

    years = [(date(2020, 1, 6) + timedelta(weeks=n), 3) for n in range(0, 52 * 5, 2)]
    chart = points_by_period(years)
    assert chart["unit"] == "year" and [r.label for r in chart["rows"]][-1] == "2020"
    assert len(chart["rows"]) <= MAX_ROWS and chart["total"] == 3 * len(years)


def test_places_are_counted_per_rule_set_with_a_bar_split_by_place():
    rows = places_table(
        {"duel": {1: 3, 2: 1}, "classic": {4: 2}}, {"duel": "Duel", "classic": "Classic"}
    )
    assert [(r["name"], r["places"], r["rounds"]) for r in rows] == [
        ("Classic", [0, 0, 0, 2], 2),
        ("Duel", [3, 1, 0, 0], 4),
    ]
    duel = rows[1]["parts"]
    assert [(p["place"], p["x"], p["w"]) for p in duel] == [(1, "0.0", "75.0"), (2, "75.0", "25.0")]
