"""The replay command and library (docs/record.md): exit 0/1/2, a line per record, no traceback."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import apply_move, legal_moves, new_game, roll
from games.engine.record_format import ActionError, parse_record, replay_record
from games.engine.replay_command import replay_main, replay_value
from games.engine.state import MalformedError

ROOT = Path(__file__).resolve().parents[3]


def record(actions, ruleset="classic", players=None, **extra):
    return {
        "format": "ludopat-record/1",
        "ruleset": ruleset,
        "players": players or [["red"], ["yellow"]],
        "actions": actions,
        **extra,
    }


OUT_AND_MOVE = [{"roll": [6]}, {"move": {"token": ["red", 0]}}]


def run(tmp_path, capsys, content):
    path = tmp_path / "in.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code = replay_main(str(path))
    lines = capsys.readouterr().out.splitlines()
    return code, [json.loads(line) for line in lines]


def test_a_record_prints_its_state_with_legal_moves(tmp_path, capsys):
    code, out = run(tmp_path, capsys, json.dumps(record([*OUT_AND_MOVE, {"roll": [3]}])))
    assert code == 0 and len(out) == 1
    assert out[0]["tokens"] == {"red": [0, -1, -1, -1], "yellow": [-1, -1, -1, -1]}
    assert out[0]["legal"] == [{"token": ["red", 0], "die": 3, "pair": False, "to": 3}]


def test_the_library_returns_the_state():
    state = replay_record(record(OUT_AND_MOVE, id=7, names=["a", "b"], result={}))
    assert state.tokens[0] == (0, -1, -1, -1)


@pytest.mark.parametrize(
    ("actions", "at"),
    [
        ([{"roll": [7]}], 0),
        ([{"roll": [0]}], 0),
        ([{"roll": [3, 4]}], 0),
        ([{"roll": []}], 0),
        ([{"roll": [5]}, {"roll": [6]}, {"move": {"token": ["green", 0]}}], 2),
        ([{"roll": [6]}, {"move": {"token": ["red", 4]}}], 1),
        ([{"roll": [6]}, {"move": {"token": ["red", -1]}}], 1),
        ([{"roll": [6]}, {"move": {"token": ["yellow", 0]}}], 1),
        ([{"roll": [6]}, {"roll": [6]}], 1),
        ([{"move": {"token": ["red", 0]}}], 0),
        ([{"roll": [6]}, {"move": {"token": ["red", 0], "die": 5}}], 1),
        ([{"roll": [6]}, {"move": {"token": ["red", 0], "pair": True}}], 1),
        ([{"roll": [6]}, {"move": {"token": ["red", 0], "die": "total"}}], 1),
        ([{"roll": [10**30]}], 0),
    ],
)
def test_an_action_that_cant_apply_exits_1_with_its_index(tmp_path, capsys, actions, at):
    code, out = run(tmp_path, capsys, json.dumps(record(actions)))
    assert code == 1
    assert set(out[0]) == {"error", "at"} and out[0]["at"] == at
    with pytest.raises(ActionError):
        replay_record(record(actions))


def finished_quick_game():
    """A classic 2-token game red wins: red rolls a 6, then what its first token still needs (at most
    5); yellow rolls 1s and never comes out."""
    state = new_game("classic", [["red"], ["yellow"]], {"tokens": 2})
    acts = []
    while not state.finished:
        if state.turn == 1:
            die = 1
        elif state.memo[0] == 0:
            die = 6
        else:
            die = min(5, next(56 - p for p in state.tokens[0] if p != 56))
        acts.append({"roll": [die]})
        state, _ = roll(state, [die])
        if state.awaiting == "move" and not state.finished:
            chosen = legal_moves(state)[0]
            acts.append({"move": {"token": list(chosen.token)}})
            state, _ = apply_move(state, chosen)
    return acts


def test_an_action_after_the_end_exits_1(tmp_path, capsys):
    acts = finished_quick_game()
    code, out = run(tmp_path, capsys, json.dumps(record(acts, options={"tokens": 2})))
    assert code == 0 and out[0]["status"] == "finished" and out[0]["places"] == [0, 1]
    code, out = run(
        tmp_path, capsys, json.dumps(record([*acts, {"roll": [3]}], options={"tokens": 2}))
    )
    assert code == 1 and out[0]["at"] == len(acts)


MALFORMED = [
    "[]",
    "3",
    '"record"',
    "null",
    json.dumps({**record([]), "format": "ludopat-record/2"}),
    json.dumps({k: v for k, v in record([]).items() if k != "format"}),
    json.dumps(record([], ruleset="snakes")),
    json.dumps(record([], ruleset=None)),
    json.dumps(record([], options={"tokens": 3})),
    json.dumps(record([], options={"tokens": True})),
    json.dumps(record([], options={"pairs": True})),
    json.dumps(record([], options=None)),
    json.dumps(record([], options=[])),
    json.dumps(record([], players=[["red"]])),
    json.dumps(record([], players=[["red", "yellow"], ["green"]])),
    json.dumps(record([], players="red")),
    json.dumps(record([], ruleset="duel", players=[["red"], ["yellow"]])),
    json.dumps({k: v for k, v in record([]).items() if k != "actions"}),
    json.dumps(record({"roll": [6]})),
    json.dumps(record([{"roll": [6], "move": {"token": ["red", 0]}}])),
    json.dumps(record([{}])),
    json.dumps(record([[6]])),
    json.dumps(record([{"roll": 6}])),
    json.dumps(record([{"roll": [True]}])),
    json.dumps(record([{"roll": [6.0]}])),
    json.dumps(record([{"roll": ["6"]}])),
    json.dumps(record([{"roll": [6]}, {"move": ["red", 0]}])),
    json.dumps(record([{"roll": [6]}, {"move": {}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": ["red", True]}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": ["red", 0, 1]}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": [0, 0]}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": ["red", 0], "die": True}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": ["red", 0], "die": "6"}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": ["red", 0], "die": None}}])),
    json.dumps(record([{"roll": [6]}, {"move": {"token": ["red", 0], "pair": 1}}])),
    '{"format": "ludopat-record/1", "ruleset": "classic", "players": [["red"], ["yellow"]], "actions": [{"roll": [NaN]}]}',
    "",
    "   \n\n",
    "{not json",
    "[" * 100_000 + "]" * 100_000,
    '{"a": ' + "1" * 10_000 + "}",
]


@pytest.mark.parametrize("content", MALFORMED, ids=range(len(MALFORMED)))
def test_input_that_is_not_a_record_exits_2(tmp_path, capsys, content):
    code, out = run(tmp_path, capsys, content)
    assert code == 2
    assert len(out) == 1 and set(out[0]) == {"error"}


def test_an_action_later_that_is_malformed_wins_over_an_earlier_illegal_one():
    with pytest.raises(MalformedError):
        parse_record(record([{"roll": [9]}, {"roll": "x"}]))


def test_not_utf8_and_missing_files_exit_2(tmp_path, capsys):
    assert run(tmp_path, capsys, b"\xff\xfe{")[0] == 2
    assert replay_main(str(tmp_path / "nope.json")) == 2
    assert set(json.loads(capsys.readouterr().out)) == {"error"}


def test_a_truncated_pretty_record_is_one_error_line(tmp_path, capsys):
    text = json.dumps(record([*OUT_AND_MOVE, {"roll": [3]}]), indent=1)
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 1):
        code, out = run(tmp_path, capsys, text[:cut])
        assert code == 2 and len(out) == 1 and set(out[0]) == {"error"}


def test_json_lines_one_output_line_each_a_bad_line_does_not_stop_the_rest(tmp_path, capsys):
    good = json.dumps(record(OUT_AND_MOVE))
    illegal = json.dumps(record([{"roll": [7]}]))
    code, out = run(tmp_path, capsys, "\n".join([good, illegal, "", good]) + "\n")
    assert code == 0  # an illegal action is reported on its line but is still a record
    assert len(out) == 3 and out[1] == {"error": out[1]["error"], "at": 0} and out[2] == out[0]
    code, out = run(tmp_path, capsys, "\n".join([good, "{broken", "[1]", good]))
    assert code == 2
    assert [set(o) for o in out] == [set(out[0]), {"error"}, {"error"}, set(out[0])]


def test_the_command_reads_standard_input_and_prints_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", "-"],
        input=json.dumps(record(OUT_AND_MOVE)).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert json.loads(done.stdout)["awaiting"] == "roll"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
tokens = st.tuples(st.sampled_from(["red", "yellow", "green", "blue", "x"]), st.integers(-1, 4))
actions = st.one_of(
    st.builds(lambda d: {"roll": d}, st.lists(st.integers(0, 7), max_size=2)),
    st.builds(
        lambda t, die, pair: {"move": {"token": list(t), **die, **pair}},
        tokens,
        st.sampled_from([{}, {"die": 6}, {"die": 3}, {"die": "total"}]),
        st.sampled_from([{}, {"pair": True}, {"pair": False}]),
    ),
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_fuzz_any_json_value_gets_an_error_or_a_state(value):
    obj, code = replay_value(value)
    assert code in (0, 1, 2)
    json.dumps(obj)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["classic", "duel", "places"]),
    st.lists(actions, max_size=25),
    st.sampled_from([{}, {"pairs": True}, {"hold": True}, {"pairs": True, "hold": True}]),
)
def test_fuzz_well_shaped_records_exit_0_or_1(ruleset, acts, options):
    players = [["red"], ["blue"]] if ruleset == "duel" else [["red"], ["yellow"]]
    rec = record(acts, ruleset, players, options=options if ruleset == "places" else {})
    obj, code = replay_value(rec)
    assert code in (0, 1)
    assert ("at" in obj) == (code == 1)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_fuzz_any_bytes_never_a_traceback(tmp_path, capsys, content):
    code, out = run(tmp_path, capsys, content)
    assert code in (0, 1, 2)
    assert all(isinstance(o, dict) for o in out)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 10_000))
def test_fuzz_truncated_records_exit_2(tmp_path, capsys, cut):
    text = json.dumps(record([*OUT_AND_MOVE, {"roll": [3]}]), indent=1)
    cut = cut % len(text)
    code, out = run(tmp_path, capsys, text[:cut])
    assert code == 2 and len(out) == 1 and set(out[0]) == {"error"}
