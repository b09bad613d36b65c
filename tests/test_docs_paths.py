"""Every file or folder the docs name exists, so a move or a rename can't leave them pointing nowhere.

Read: docs/*.md, README.md and tests/README.md. Checked: each repository-relative path in backticks
(`games/core/stamp.py`, `tests/races.py:12`, `tests/x.py::test_y`, a word of a backticked command),
each bare path with a file's suffix in the prose, and each relative Markdown link (resolved from the
doc's own folder). A path is repository-relative when its first part is an entry of the repository's
root; placeholders and globs (`tests/<app>/<package>/`, `games/*.py`, `{app}`, `...`) are not checked.
A plain file scan: no Django, well under a second.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "tests" / "README.md"]

# The root's entries a doc may start a path with (not the hidden ones or build leftovers).
TOPS = {
    p.name
    for p in ROOT.iterdir()
    if not p.name.startswith((".", "__")) and not p.name.endswith(".egg-info")
}
SUFFIXES = r"py|md|toml|html|js|css|txt|cfg|ini|yml|yaml|json|sh|sql|svg"
BACKTICKED = re.compile(r"`([^`\n]+)`")
BARE = re.compile(rf"(?<![\w./`<>*-])([\w-]+(?:/[\w.-]+)+\.(?:{SUFFIXES}))\b")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
PLACEHOLDER = re.compile(r"[<>*{}$]|\.\.\.|…")


def _as_path(word: str) -> str | None:
    """The repository-relative path a word names, or None when it names none (or a placeholder)."""
    word = word.strip("()[],;:'\"")
    word = word.split("::")[0]  # a pytest node id
    word = re.sub(r":\d+(?:-\d+)?$", "", word)  # a line number or range
    if PLACEHOLDER.search(word) or word.startswith(("/", "http:", "https:", "-")):
        return None
    first = word.split("/")[0]
    if first not in TOPS:
        return None
    if "/" not in word and first == word and not re.search(rf"\.(?:{SUFFIXES})$", word):
        return None  # a bare word that happens to be a folder's name: `games`, `tests`
    return word


def paths_named(doc: Path) -> list[tuple[int, str, Path]]:
    """(line, text, path) for every path the doc names, resolved against the repository or the doc."""
    named = []
    in_fence = False
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        words = [w for m in BACKTICKED.finditer(line) for w in m.group(1).split()]
        if in_fence:
            words += line.split()
        outside = BACKTICKED.sub(" ", line)
        words += [m.group(1) for m in BARE.finditer(outside)]
        for word in words:
            path = _as_path(word)
            if path is not None:
                named.append((number, path, ROOT / path))
        for m in LINK.finditer(outside):
            target = m.group(1)
            if not PLACEHOLDER.search(target) and not re.match(r"[a-z]+:", target):
                named.append((number, target, doc.parent / target))
    return list(dict.fromkeys(named))  # a link's target is also a bare path: name it once


def test_the_scan_finds_paths() -> None:
    """The scan itself can't quietly go blind: it finds the paths these docs are known to name."""
    found = {text for doc in DOCS for _, text, _ in paths_named(doc)}
    assert {"tests/races.py", "games/engine/"} <= found
    assert _as_path("`tests/<app>/<package>/`".strip("`")) is None
    assert _as_path("tests/games/test_shape.py::test_one_end") == "tests/games/test_shape.py"
    assert _as_path("games") is None


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_doc_names_exists(doc: Path) -> None:
    missing = [f"line {n}: {text}" for n, text, path in paths_named(doc) if not path.exists()]
    assert not missing, f"{doc.relative_to(ROOT)} names paths that don't exist:\n" + "\n".join(
        missing
    )
