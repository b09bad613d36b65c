"""A page's board as the frames its socket sent make it: bench/board_model.py (what static/js/game.js
does with a push: regions swapped into the board the page shows), loaded from the bench's folder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def board_model() -> ModuleType:
    name = "bench_board_model"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "bench" / "board_model.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def shown(model, frame: str) -> str:
    """A board frame as the page shows it after taking it: a push's own tag, then every region the
    page holds (those the push carried, and those it kept from earlier frames)."""
    if not frame.startswith(board_model().DELTA_START):
        return frame
    head = frame[: frame.index("</div>") + len("</div>")]
    return head + "".join(model.regions.values())
