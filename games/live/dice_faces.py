"""A die's face as an SVG (pips on a rounded square), for the dice panel and the `die_face` tag."""

from __future__ import annotations

PIPS = {
    0: [],
    1: [(50, 50)],
    2: [(28, 28), (72, 72)],
    3: [(28, 28), (50, 50), (72, 72)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(28, 28), (72, 28), (50, 50), (28, 72), (72, 72)],
    6: [(28, 26), (72, 26), (28, 50), (72, 50), (28, 74), (72, 74)],
}

# Seven faces (0: blank), made once: each is the same markup wherever it shows.
FACES = {
    value: '<svg viewBox="0 0 100 100" class="die-face" aria-hidden="true" focusable="false">'
    '<rect x="4" y="4" width="92" height="92" rx="20"/><g class="pips">'
    + "".join(f'<circle cx="{x}" cy="{y}" r="9"/>' for x, y in pips)
    + "</g></svg>"
    for value, pips in PIPS.items()
}


def face(value: int | str) -> str:
    """The face showing `value` (blank for anything but 1 to 6)."""
    number = int(value) if str(value).isdigit() else 0
    return FACES.get(number, FACES[0])
