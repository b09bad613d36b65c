"""The game core's shape, pinned (issue 9): later changes can't quietly undo it.

- games/actions/ modules import one another without a circle (tasks are queued by name);
- `finish_round` is the only code that ends a round (sets a finished status or writes the places);
- games.broadcast is the only code that pushes to a channel group.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = ROOT / "games" / "actions"
APP_CODE = [
    p
    for folder in ("games", "accounts", "leaderboard")
    for p in (ROOT / folder).rglob("*.py")
    if "migrations" not in p.parts and "engine" not in p.parts
]


def _imports_of(path: Path) -> set[str]:
    """The sibling modules of games/actions that `path` imports, at any depth (lazy ones too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("games.actions."):
                found.add(node.module.split(".")[2])
    siblings = {p.stem for p in ACTIONS.glob("*.py")}
    return found & siblings - {path.stem}


def test_the_actions_package_has_no_import_circle():
    graph = {p.stem: _imports_of(p) for p in ACTIONS.glob("*.py") if p.stem != "__init__"}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import circle: {' -> '.join((*path, name))}"
        if name in done:
            return
        for other in graph.get(name, ()):
            visit(other, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def _writes(path: Path) -> list[str]:
    """Assignments that end a round: `x.result_places = ...` or `x.status = ...FINISHED`."""
    hits = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr == "result_places":
                value = node.value
                if not (isinstance(value, ast.List) and not value.elts):  # a new round clears it
                    hits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            ending = any(word in ast.unparse(node.value) for word in ("FINISHED", "ABANDONED"))
            if isinstance(target, ast.Attribute) and target.attr == "status" and ending:
                hits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return hits


def test_finish_round_is_the_only_code_that_ends_a_round():
    writers = [hit for path in APP_CODE for hit in _writes(path)]
    assert writers and all(w.startswith("games/actions/rounds.py:") for w in writers), writers


def test_only_the_broadcaster_pushes_to_a_game_group():
    pushers = [
        str(p.relative_to(ROOT))
        for p in APP_CODE
        if "group_send" in p.read_text() and p.name != "broadcast.py"
    ]
    # The home page's online count and a banned account's sockets are not game groups.
    assert sorted(pushers) == ["accounts/consumers.py", "accounts/sockets.py"], pushers
