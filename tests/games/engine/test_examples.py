"""Every shared example record replays to its expected state (legal moves compared as a set).

The examples live outside the repository (tests/shared_examples.py): skipped where they are missing,
a failure in CI (LUDOPAT_REQUIRE_SHARED_EXAMPLES=1)."""

import json

import pytest

from games.engine.replay_command import replay_main
from tests import shared_examples as shared


def normalised(state):
    state = dict(state)
    state["legal"] = sorted(json.dumps(m, sort_keys=True) for m in state.get("legal", []))
    return state


@pytest.mark.parametrize("record", shared.records(), ids=shared.record_id)
def test_example_replays_to_its_expected_state(record, capsys):
    record = shared.present(record)
    expected = shared.expected_state(record)
    assert replay_main(str(record)) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert normalised(json.loads(out)) == normalised(expected)
