"""The dark theme sets colours and nothing else: the browser tests' accessibility check leans on it,
running only axe's colour rules in the dark scheme (tests/browser/conftest.py). A dark rule that moved,
hid or resized something would need the full check in both schemes."""

from __future__ import annotations

import re

from tests.stack import ROOT

DARK_CSS = ROOT / "static" / "css" / "dark.css"
COLOUR_PROPERTIES = {
    "color",
    "color-scheme",
    "background",
    "background-color",
    "border-color",
    "border-top-color",
    "border-right-color",
    "border-bottom-color",
    "border-left-color",
    "outline-color",
    "box-shadow",
    "fill",
    "stroke",
    "accent-color",
    "caret-color",
}


def declarations(css: str) -> list[tuple[str, str]]:
    """(property, value) of every declaration inside the rules' braces, comments removed."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = []
    for body in re.findall(r"\{([^{}]*)\}", css):
        for part in body.split(";"):
            if ":" in part:
                name, value = part.split(":", 1)
                found.append((name.strip().lower(), value.strip()))
    return found


def test_the_dark_theme_only_changes_colours():
    found = declarations(DARK_CSS.read_text())
    assert len(found) > 20  # the file was read and parsed
    other = [
        f"{name}: {value}"
        for name, value in found
        if not name.startswith("--") and name not in COLOUR_PROPERTIES
    ]
    assert not other, "dark.css sets more than colours: " + "; ".join(other)
    # A background shorthand may only carry a colour, never an image or a size.
    images = [v for n, v in found if n == "background" and re.search(r"url\(|gradient|/", v)]
    assert not images, images


def test_the_check_catches_a_rule_that_is_not_a_colour():
    assert declarations(".x { display: none; color: red }") == [
        ("display", "none"),
        ("color", "red"),
    ]
