"""Moderation sits above the games, the leaderboard, staking and the ledger, and calls their services:
nothing below it imports accounts.moderation, at the top of a module or inside a function. The reads
they need of a mute or a ban are accounts.sanctions. (The web layer above, the app's configuration and
the models module that registers moderation's models may import it.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODERATION = "accounts.moderation"
# The web layer and the app wiring: entry points that may call moderation.
ABOVE = {"views", "pages", "consumers", "admin", "commands", "tasks", "urls", "forms", "apps"}
# Django finds an app's models through its models module only.
REGISTERS_MODELS = {"accounts/models.py"}


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imported(path: Path) -> set[str]:
    """Every module `path` imports, relative imports resolved, at any depth."""
    package = _module_of(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _module_of(path)
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _below_moderation() -> list[Path]:
    below = []
    for folder in ("ludopat", "accounts", "games", "leaderboard"):
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).parts
            if "migrations" in parts or "templatetags" in parts or "management" in parts:
                continue
            if parts[:2] == ("accounts", "moderation"):
                continue
            stem = path.stem
            web = stem in ABOVE or any(stem.endswith(f"_{name}") for name in ABOVE)
            if web or stem.startswith("admin"):
                continue
            if str(path.relative_to(ROOT)) in REGISTERS_MODELS:
                continue
            below.append(path)
    return below


def test_nothing_below_moderation_imports_it():
    below = _below_moderation()
    assert any(p.name == "actors.py" for p in below)  # games' core is checked
    assert any(p.name == "sanctions.py" for p in below)
    upward = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in below
        for name in sorted(_imported(path))
        if name == MODERATION or name.startswith(f"{MODERATION}.")
    ]
    assert upward == []


def test_the_models_module_imports_only_moderation_models():
    """accounts/models.py registers the package's models, and nothing of its services."""
    imported = {
        name
        for name in _imported(ROOT / "accounts" / "models.py")
        if name.startswith(f"{MODERATION}.")
    }
    allowed = {"accounts.moderation.audit", "accounts.moderation.models"}
    assert {n.rsplit(".", 1)[0] if n not in allowed else n for n in imported} <= allowed
