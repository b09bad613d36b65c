"""The site's shape, pinned: later changes can't quietly undo it. Every check scans
every first-party app in INSTALLED_APPS (and the project package where it says so).

- every first-party module is named by the layers contract (pyproject.toml, checked by `lint-imports`),
  so a new module can't escape it; its top layer is the endpoints (every app's web/ package and what
  Django and Celery find by name), so nothing below imports one;
- the games' and accounts' roots hold their models, app config and packages, and only the modules
  Django and Celery find there by name (docs/architecture.md, "Layout");
- no app code outside migrations finds a model or a module by a string (`apps.get_model`,
  `import_string`, `importlib`): such an edge is one the contract can't see;
- games/actions/ modules import one another without a circle (tasks are queued by name);
- `finish_round` is the only code that ends a round (sets a finished status or writes the places), and
  only `end_round` calls it: every way a round ends is the one call that also records the action, saves
  and tells the viewers, and no caller records or saves the game by hand after it;
- ludopat.push is the only code that pushes to a channel group (every app's pushes go through it).
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from django.apps import apps
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = ROOT / "games" / "actions"
# The first-party apps: those of INSTALLED_APPS that are packages of this checkout.
APPS = sorted(
    Path(config.path) for config in apps.get_app_configs() if Path(config.path).parent == ROOT
)
PROJECT = ROOT / settings.ROOT_URLCONF.split(".")[0]  # ludopat: settings, URLs, plumbing
ALL_CODE = [
    p for folder in [*APPS, PROJECT] for p in folder.rglob("*.py") if "migrations" not in p.parts
]
# The apps' code that plays games (the engine computes, it never ends a round or pushes).
APP_CODE = [p for p in ALL_CODE if PROJECT not in p.parents and "engine" not in p.parts]


def test_the_shape_tests_scan_every_first_party_app():
    names = {path.name for path in APPS}
    assert names == {"accounts", "games", "leaderboard"}, names
    assert {path.parts[len(ROOT.parts)] for path in APP_CODE} == names


# --- the layers ----------------------------------------------------------------------------------


def _import_linter() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _named_by_layers() -> set[str]:
    """The modules the layers contract names (a name in parentheses may be missing)."""
    contract = next(c for c in _import_linter()["contracts"] if c["type"] == "layers")
    return {
        name.strip().strip("()")
        for layer in contract["layers"]
        for name in re.split(r"[:|]", layer)
        if name.strip()
    }


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_first_party_module_is_named_by_a_layer():
    named = _named_by_layers()
    roots = _import_linter()["root_packages"]
    assert sorted(roots) == sorted([PROJECT.name, *(path.name for path in APPS)])
    modules = [_module_name(p) for p in ALL_CODE]

    def in_a_layer(module: str) -> bool:
        return any(module == name or module.startswith(f"{name}.") for name in named)

    def holds_layers(module: str) -> bool:  # a package whose modules are named one by one
        return any(name.startswith(f"{module}.") for name in named)

    loose = [m for m in modules if not in_a_layer(m) and not holds_layers(m)]
    assert not loose, f"name these modules in a layer of pyproject.toml's contract: {loose}"


# What Django and Celery find at an app's root by its name, and the project's own entry points.
DISCOVERED = {"admin", "apps", "tasks", "templatetags", "management"}
PROJECT_ENDPOINTS = {"urls", "asgi", "routing", "views", "ops_views"}


def test_the_top_layer_is_the_endpoints():
    """Each app's web/ package is in the top layer, beside only what is found by name, so the
    contract keeps every module below from importing an endpoint."""
    contract = next(c for c in _import_linter()["contracts"] if c["type"] == "layers")
    top = {name.strip() for name in re.split(r"[:|]", contract["layers"][0]) if name.strip()}
    assert {f"{path.name}.web" for path in APPS} <= top, top
    odd = [
        name
        for name in top
        if not (
            name.count(".") == 1
            and (
                (name.split(".")[0] == PROJECT.name and name.split(".")[1] in PROJECT_ENDPOINTS)
                or (
                    name.split(".")[0] != PROJECT.name
                    and name.split(".")[1] in {"web", *DISCOVERED}
                )
            )
        )
    ]
    assert not odd, f"only endpoints belong to the top layer: {odd}"


def test_an_app_root_holds_its_models_config_and_packages():
    # The games' and accounts' roots; the leaderboard's services are still at its root.
    loose = [
        str(path.relative_to(ROOT))
        for app in APPS
        if app.name in {"games", "accounts"}
        for path in app.glob("*.py")
        if path.stem not in {"__init__", "models", *DISCOVERED}
    ]
    assert not loose, f"put these in a package of the app: {loose}"


def _finds_by_string(node: ast.AST) -> bool:
    """`apps.get_model(...)`, `import_string`, `importlib` / `import_module`, `__import__`."""
    if isinstance(node, ast.Attribute):
        return node.attr in {"get_model", "import_module", "import_string"}
    if isinstance(node, ast.Name):
        return node.id in {"import_string", "import_module", "__import__"}
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == "importlib" for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        names = {alias.name for alias in node.names}
        return (node.module or "").split(".")[0] == "importlib" or "import_string" in names
    return False


def test_no_app_code_finds_a_model_or_a_module_by_a_string():
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in ALL_CODE
        for node in ast.walk(ast.parse(path.read_text()))
        if _finds_by_string(node)
    ]
    assert not found, f"import it instead, so the layers contract sees the edge: {found}"


# --- games' core ------------------------------------------------------------------------------------


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
            if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "tournament":
                continue  # a tournament's own status (games/tournaments/), not a game's round
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


def _called(node: ast.AST) -> str:
    """The name a call calls (`f(...)` or `x.f(...)`), else ""."""
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def _calls(node: ast.AST, names: set[str]) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and _called(n) in names]


def _after(path: Path, tree: ast.AST, call: ast.Call) -> list[ast.stmt]:
    """The statements that can run after `call` in its function: those after its statement in its
    block and in every enclosing block, up to a block that returns (or raises) after it."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    node: ast.AST = call
    later: list[ast.stmt] = []
    while not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
        parent = parents[node]
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                rest = block[block.index(node) + 1 :]
                later += rest
                if rest and isinstance(rest[-1], ast.Return | ast.Raise):
                    return later
        node = parent
    return later


def test_every_way_a_round_ends_is_the_one_call():
    finishers, enders, by_hand = [], [], []
    for path in APP_CODE:
        tree = ast.parse(path.read_text())
        where = str(path.relative_to(ROOT))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            if _calls(function, {"finish_round"}):
                finishers.append(f"{where}:{function.name}")
        for call in _calls(tree, {"end_round"}):
            enders.append(where)
            for statement in _after(path, tree, call):
                for late in _calls(statement, {"record_action", "save_game", "save"}):
                    by_hand.append(f"{where}:{late.lineno}")
    # finish_round is end_round's own step; every other module ends a round with end_round.
    assert finishers == ["games/actions/rounds.py:end_round"], finishers
    assert set(enders) == {
        "games/actions/absence.py",  # a staked game nobody is at, or both players away
        "games/actions/idle.py",  # the idle sweeper
        "games/actions/leaving.py",  # resign, leave, abandon, a room closed
        "accounts/moderation/voids.py",  # a moderator's void
        "games/actions/rounds.py",  # a new round over the round in play
        "games/actions/turns.py",  # the winning move
        "games/tournaments/starting.py",  # a cancelled tournament's matches in play
    }, enders
    assert not by_hand, f"recorded or saved by hand after end_round: {by_hand}"


def test_the_ways_a_round_ends_keep_their_stored_values():
    from games.core.round_ends import ENDS, RANKED, UNRANKED, RoundEnd

    assert {e.value for e in RoundEnd} == {
        "won",
        "resign",
        "leave",
        "abandon",
        "wipe",
        "agreed",
        "idle",
        "void",
        "cancel",
    }  # Round.how and Result.how hold these: no data migration
    assert set(ENDS) == set(RoundEnd) and not RANKED & UNRANKED


def test_one_module_sends_every_push():
    """Every push of every app (a game's, a tournament's, an account's, the online count) goes
    through ludopat/push.py: the channel layer's `group_send` (or `group_send_sync`) is called there
    alone."""
    senders = set()
    for path in ALL_CODE:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            # group_send_sync: the site's layer's push from synchronous code (ludopat/channel_layer.py)
            if isinstance(node, ast.Attribute) and node.attr in ("group_send", "group_send_sync"):
                senders.add(str(path.relative_to(ROOT)))
    assert senders == {"ludopat/push.py"}, senders
