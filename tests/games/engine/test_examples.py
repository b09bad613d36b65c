"""Every shared example record replays to its expected state (legal moves compared as a set)."""

import json
from pathlib import Path

import pytest

from games.engine.replay import replay_main

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
EXAMPLES = sorted((SHARED / "examples").glob("*.record.json"))

pytestmark = pytest.mark.skipif(
    not EXAMPLES, reason=f"no shared examples beside the repo at {SHARED}"
)


def normalised(state):
    state = dict(state)
    state["legal"] = sorted(json.dumps(m, sort_keys=True) for m in state.get("legal", []))
    return state


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name.removesuffix(".record.json"))
def test_example_replays_to_its_expected_state(record, capsys):
    expected = json.loads(record.with_name(record.name.replace(".record.", ".expect.")).read_text())
    assert replay_main(str(record)) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert normalised(json.loads(out)) == normalised(expected)
