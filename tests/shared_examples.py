"""The conformance examples that live outside this repository: example records with their expected
states, and fair-dice test vectors, in the `examples` folder of a `shared` folder beside the checkout
(or of the folder `LUDOPAT_SHARED_DIR` names). docs/record.md, "Conformance examples".

Where the folder is missing the tests that replay it are skipped, saying where they looked. CI sets
`LUDOPAT_REQUIRE_SHARED_EXAMPLES=1`: there a missing folder fails those tests instead, so they can never
pass by not running.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIRE = "LUDOPAT_REQUIRE_SHARED_EXAMPLES"


def folder() -> Path:
    shared = os.environ.get("LUDOPAT_SHARED_DIR") or ROOT.parent / "shared"
    return Path(shared) / "examples"


def required() -> bool:
    return os.environ.get(REQUIRE, "") == "1"


def _missing(what: str) -> list[Any]:
    """One parameter standing for the absent examples: skipped here, failing where they are required."""
    why = f"no {what} in {folder()} (the shared conformance examples beside the checkout)"
    marks = () if required() else (pytest.mark.skip(reason=why),)
    return [pytest.param(None, id="missing", marks=marks)]


def present(example: Any) -> Any:
    """The example a test was given; fails the test when it stands for examples that are missing."""
    if example is None:
        pytest.fail(f"the shared conformance examples are missing from {folder()} and {REQUIRE}=1")
    return example


def records(pattern: str = "*.record.json") -> list[Any]:
    """Parameters for the example records matching `pattern` (each beside its `.expect.json`)."""
    found = sorted(folder().glob(pattern))
    return found or _missing(f"example records {pattern}")


def fair_dice_vectors() -> list[Any]:
    """Parameters for the fair-dice vectors (server seed, client seed, the first dice)."""
    path = folder() / "fair-dice.json"
    if not path.is_file():
        return _missing("fair-dice.json")
    return json.loads(path.read_text())["vectors"]


def record_id(example: Path) -> str:
    return example.name.removesuffix(".record.json")


def expected_state(record: Path) -> dict[str, Any]:
    return json.loads(record.with_name(record.name.replace(".record.", ".expect.")).read_text())
