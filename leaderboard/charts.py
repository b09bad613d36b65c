"""Server-rendered SVG charts for player pages: coordinates computed here, drawn by a template with CSS
classes only (no inline styles, no script), each with a text alternative."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28


@dataclass(frozen=True)
class Point:
    x: str  # coordinates as text: the template writes them as they are (no number localising)
    y: str
    label: str  # the week's first day
    value: int


def _n(value: float) -> str:
    return f"{value:.1f}"


def points_line(weeks: list[tuple[date, int]]) -> dict:
    """Points over time: the running total at the end of each week the player scored in.

    `weeks` are (week's Monday, points that week), oldest first.
    """
    total, running = 0, []
    for start, scored in weeks:
        total += scored
        running.append((start, total))
    top = max((v for _, v in running), default=0) or 10
    span = max(len(running) - 1, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    points = [
        Point(
            _n(LEFT + plot_w * (n / span if len(running) > 1 else 0.5)),
            _n(TOP + plot_h * (1 - value / top)),
            start.isoformat(),
            value,
        )
        for n, (start, value) in enumerate(running)
    ]
    ticks = [{"y": _n(TOP + plot_h * (1 - f)), "value": round(top * f)} for f in (0, 0.5, 1)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "points": points,
        "path": " ".join(f"{p.x},{p.y}" for p in points),
        "ticks": ticks,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "first": points[0].label if points else "",
        "last": points[-1].label if points else "",
        "total": total,
    }


def places_bars(counts: dict[str, dict[int, int]], names: dict[str, str]) -> dict:
    """Places per rule set: one bar per rule set, split into its 1st, 2nd, 3rd and 4th places."""
    row_h, gap, label_w = 26, 10, 90
    plot_w = WIDTH - label_w - RIGHT
    widest = max((sum(c.values()) for c in counts.values()), default=0) or 1
    bars = []
    for n, (ruleset, by_place) in enumerate(sorted(counts.items())):
        y = TOP + n * (row_h + gap)
        x: float = label_w
        parts = []
        for place in sorted(by_place):
            w = plot_w * by_place[place] / widest
            parts.append({"x": _n(x), "w": _n(w), "place": place, "count": by_place[place]})
            x += w
        bars.append(
            {
                "name": names.get(ruleset, ruleset),
                "y": y,
                "text_y": _n(y + row_h / 2 + 4),
                "h": row_h,
                "parts": parts,
                "total": sum(by_place.values()),
                "places": [by_place.get(p, 0) for p in (1, 2, 3, 4)],
            }
        )
    return {
        "width": WIDTH,
        "height": TOP + len(bars) * (row_h + gap) + 4,
        "bars": bars,
        "label_x": label_w - 8,
    }
