"""The player page's charts, as tables whose cells carry a bar: every value is written as a number
beside its bar, the text is the page's own (readable at any screen width, not scaled with a
picture), and the bars are small SVGs sized by attributes in percent (no inline styles: the
Content-Security-Policy allows our stylesheets only).

Points are shown per week for a short history, per month or per year for a longer one, so the
chart keeps at most MAX_ROWS rows however long a player has played; a single week is one row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

MAX_ROWS = 12
PLACES = (1, 2, 3, 4)


@dataclass(frozen=True)
class PointsRow:
    label: str  # "24 Nov 2026", "Nov 2026" or "2026"
    start: date  # the period's first day
    points: int  # scored in the period
    total: int  # the running total at the period's end
    percent: str  # the bar's length, of the longest bar


def _percent(value: int, top: int) -> str:
    return f"{100 * value / top:.1f}" if top else "0"


def _periods(weeks: list[tuple[date, int]]) -> tuple[str, Callable[[date], date]]:
    """The coarsest grouping that still tells the story: weeks, months or years."""
    if not weeks:
        return "week", lambda d: d
    first, last = weeks[0][0], weeks[-1][0]
    if (last - first).days < 7 * MAX_ROWS:
        return "week", lambda d: d
    if (last.year - first.year) * 12 + last.month - first.month < MAX_ROWS:
        return "month", lambda d: d.replace(day=1)
    return "year", lambda d: d.replace(month=1, day=1)


def _label(start: date, unit: str) -> str:
    if unit == "week":
        return f"{start.day} {start:%b %Y}"
    if unit == "month":
        return f"{start:%b %Y}"
    return str(start.year)


def points_by_period(weeks: list[tuple[date, int]]) -> dict:
    """Points per week, month or year, newest first, with the running total after each.

    `weeks` are (week's Monday, points that week), oldest first. Only the newest MAX_ROWS periods
    are rows; the totals count every week before them too.
    """
    unit, period_of = _periods(weeks)
    sums: dict[date, int] = {}
    for start, scored in weeks:
        key = period_of(start)
        sums[key] = sums.get(key, 0) + scored
    running, totals = 0, {}
    for key in sorted(sums):
        running += sums[key]
        totals[key] = running
    newest = sorted(sums, reverse=True)[:MAX_ROWS]
    top = max((sums[k] for k in newest), default=0)
    rows = [
        PointsRow(_label(k, unit), k, sums[k], totals[k], _percent(sums[k], top)) for k in newest
    ]
    return {"unit": unit, "rows": rows, "total": running, "shown": len(rows), "periods": len(sums)}


def places_table(counts: dict[str, dict[int, int]], names: dict[str, str]) -> list[dict]:
    """Places per rule set: the count of each place, and a bar split by place (1st darkest)."""
    rows = []
    for ruleset, by_place in sorted(counts.items(), key=lambda item: names.get(item[0], item[0])):
        rounds = sum(by_place.values())
        x = 0.0
        parts = []
        for place in PLACES:
            share = 100 * by_place.get(place, 0) / rounds if rounds else 0
            if share:
                parts.append({"place": place, "x": f"{x:.1f}", "w": f"{share:.1f}"})
            x += share
        rows.append(
            {
                "name": names.get(ruleset, ruleset),
                "places": [by_place.get(p, 0) for p in PLACES],
                "rounds": rounds,
                "parts": parts,
            }
        )
    return rows


# --- the rating line ------------------------------------------------------------------------------
# Drawn in a 1000 x 300 box stretched to the chart's size (preserveAspectRatio="none"): its strokes
# and dots keep their width (vector-effect), and its numbers are the page's own text beside it, so
# the chart reads the same at 390 px and at 1280 px.
WIDTH, HEIGHT, PAD = 1000, 300, 18
MIN_SPAN = (
    100  # the vertical scale covers at least this many rating points (a flat line stays flat)
)


@dataclass(frozen=True)
class LinePoint:
    slot: int  # the period's place on the time axis: 0 for the first period, +1 per period after
    value: int  # the rating at the period's end


@dataclass(frozen=True)
class Line:
    played: str  # the path over the periods played in (SVG path data)
    idle: str  # the dotted path over the periods without play: the rating held
    dots: str  # a dot at each played period's end (zero-length strokes with round caps)
    top: int  # the values at the box's top and bottom edges
    bottom: int


def _scale(values: list[int]) -> tuple[int, int]:
    low, high = min(values), max(values)
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = round(middle - MIN_SPAN / 2), round(middle + MIN_SPAN / 2)
    return low, high


def rating_line(start: int, points: list[LinePoint]) -> Line:
    """The line of a rating over time: `start` (the rating before the first period) and each played
    period's end, oldest first, `slot` counting every period since the first, played or not.

    A period runs from its slot's left edge to its right one; the rating moves across a period played
    in and holds, dotted, across the periods without play, so a gap reads as one.
    """
    slots = points[-1].slot + 1 if points else 1
    bottom, top = _scale([start, *(p.value for p in points)])

    def x(edge: int) -> str:
        return f"{edge * WIDTH / slots:.1f}"

    def y(value: int) -> str:
        return f"{PAD + (top - value) * (HEIGHT - 2 * PAD) / (top - bottom):.1f}"

    played, idle, dots = [], [], []
    edge, value = 0, start  # where the line is: a period's left edge and the rating there
    for point in points:
        if point.slot > edge:  # periods without play: the rating holds
            idle.append(f"M{x(edge)} {y(value)}H{x(point.slot)}")
            edge = point.slot
        played.append(f"M{x(edge)} {y(value)}L{x(point.slot + 1)} {y(point.value)}")
        dots.append(f"M{x(point.slot + 1)} {y(point.value)}h0")
        edge, value = point.slot + 1, point.value
    return Line("".join(played), "".join(idle), "".join(dots), top=top, bottom=bottom)
