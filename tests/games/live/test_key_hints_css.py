"""Keyboard hints (R, 1-4, Esc) show only where there is a keyboard: hidden by default, shown under
`(hover: hover) and (pointer: fine)` (a touch screen with no mouse has no keys to press)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

GAME_CSS = Path(settings.BASE_DIR) / "static" / "css" / "game.css"


def rules_outside_media(css: str) -> str:
    return re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)


def test_the_keys_show_only_with_a_fine_pointer_that_hovers():
    css = re.sub(r"/\*.*?\*/", "", GAME_CSS.read_text(), flags=re.S)
    plain = rules_outside_media(css)
    assert re.search(r"\.key-hints, \.roll-button kbd\.key \{ display: none; \}", plain)
    shown = re.search(r"@media \(hover: hover\) and \(pointer: fine\) \{(.*?)\n\}", css, re.S)
    assert shown, "no keyboard media query"
    assert ".key-hints { display: block; }" in shown.group(1)
    assert ".roll-button kbd.key { display: inline-block; }" in shown.group(1)
    # No other rule shows or hides them by another guess at the device.
    assert len(re.findall(r"key-hints[^{]*\{[^}]*display", css)) == 2
