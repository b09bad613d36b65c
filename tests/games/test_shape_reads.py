"""Reads apart from writes, pinned: what pages and sockets show is worked out by modules that
write nothing, so rendering a board, a replay or a chat panel can never change a game, and the
presenter renders no HTML of its own (the fragments do, and keep it; and the board's drawing renders
its ground, a pure function of the corners' colours, kept per colours).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READERS = [
    ROOT / "games" / "core" / "selectors.py",
    ROOT / "games" / "reads" / "replay_page.py",
    *sorted((ROOT / "games" / "live").glob("*.py")),
]
# The ORM's writes and row locks, and the actions' own write steps.
WRITES = {
    "save",
    "create",
    "bulk_create",
    "update_or_create",
    "get_or_create",
    "select_for_update",
    "lock_game",
    "lock_games",
    "record_action",
    "save_game",
}
# A queryset's bulk writes: `update` and `delete` called on a manager or a query (a dict's `update`
# is no write).
QUERY_WRITES = {"update", "delete"}


def _calls(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in QUERY_WRITES and isinstance(func, ast.Attribute):
            on = ast.unparse(func.value)
            if "objects" in on or isinstance(func.value, ast.Call):
                name = f"queryset.{name}"
        found.append((name, node.lineno))
    return found


def test_the_reads_and_the_live_board_write_nothing():
    assert all(path.exists() for path in READERS) and len(READERS) >= 6, READERS
    writes = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in READERS
        for name, line in _calls(path)
        if name in WRITES or name.startswith("queryset.")
    ]
    assert not writes, writes


def test_only_the_fragments_render_html_for_the_live_board():
    renders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "games" / "live").glob("*.py")
        if any(name == "render_to_string" for name, _ in _calls(path))
    ]
    assert sorted(renders) == ["games/live/board_view.py", "games/live/fragments.py"], renders
