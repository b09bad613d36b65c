"""Moderation sits above the games, the leaderboard, staking and the ledger, and calls their services:
nothing below it imports accounts.moderation, at the top of a module or inside a function. The reads
they need of a mute or a ban are accounts.users.sanctions. (The web layer above, the app's configuration and
the models module that registers moderation's models may import it.)"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MODERATION = "accounts.moderation"
# The layers below moderation, as the import contract names them (pyproject.toml), bottom first.
_LAYERS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][
    0
]
_NAMES = [
    [m.strip().strip("()") for m in layer.replace("|", ":").split(":")]
    for layer in _LAYERS["layers"]
]
_MODERATION_LAYER = next(i for i, names in enumerate(_NAMES) if MODERATION in names)
LOWER = [m for names in _NAMES[_MODERATION_LAYER + 1 :] for m in names if m]
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
            if "migrations" in path.parts or str(path.relative_to(ROOT)) in REGISTERS_MODELS:
                continue
            module = _module_of(path).removesuffix(".__init__")
            if any(module == m or module.startswith(f"{m}.") for m in LOWER):
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
