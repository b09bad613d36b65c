"""`python -m games.engine verify`: a finished record verifies; any changed roll or seed is caught."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import game
from games.engine.fair import FairDice, client_seed_for
from games.engine.state import FINISHED, ROLL
from games.engine.verify import MalformedRecord, verify_record

ROOT = Path(__file__).resolve().parents[3]


def played_record(seed: int = 1) -> dict:
    """A finished twodice game: fair dice, random legal moves, as a record (docs/record.md)."""
    rng = random.Random(seed)
    dice = FairDice(client_seed=client_seed_for(["seat-a", "seat-b"]))
    players = [["red", "green"], ["yellow", "blue"]]
    s = game.new_game("twodice", players)
    actions: list[dict] = []
    while s.status != FINISHED:
        if s.awaiting == ROLL:
            rolled = dice.roll(2)
            actions.append({"roll": rolled})
            s, _ = game.roll(s, rolled)
        else:
            m = rng.choice(game.legal_moves(s))
            actions.append({"move": {"token": [m.colour, m.index], "die": m.die}})
            s, _ = game.move(s, m.colour, m.index, m.die)
    return {
        "format": "ludopat-record/1",
        "ruleset": "twodice",
        "players": players,
        "actions": actions,
        "fair": dice.fair_field(),
        "result": {"places": list(s.places)},
    }


@pytest.fixture(scope="module")
def record() -> dict:
    return played_record()


def roll_indexes(record: dict) -> list[int]:
    return [i for i, a in enumerate(record["actions"]) if "roll" in a]


def test_finished_record_verifies(record):
    assert verify_record(record) == (True, "", None)


def test_changed_roll_fails_at_its_action_index(record):
    bad = copy.deepcopy(record)
    at = roll_indexes(bad)[len(roll_indexes(bad)) // 2]
    first = bad["actions"][at]["roll"][0]
    bad["actions"][at]["roll"][0] = first % 6 + 1
    ok, reason, where = verify_record(bad)
    assert (ok, where) == (False, at) and f"action {at}" in reason


def test_swapped_dice_fail(record):
    bad = copy.deepcopy(record)
    at = next(i for i in roll_indexes(bad) if len(set(bad["actions"][i]["roll"])) == 2)
    bad["actions"][at]["roll"].reverse()
    assert verify_record(bad)[2] == at


def test_extra_roll_shifts_nonces_and_fails(record):
    bad = copy.deepcopy(record)
    bad["actions"].insert(0, {"roll": [1, 1]})
    assert verify_record(bad)[:1] == (False,) and verify_record(bad)[2] is not None


def test_changed_server_seed_fails_the_commitment(record):
    bad = copy.deepcopy(record)
    seed = bad["fair"]["server_seed"]
    bad["fair"]["server_seed"] = ("1" if seed[0] != "1" else "2") + seed[1:]
    ok, reason, where = verify_record(bad)
    assert (ok, where) == (False, None) and "sha256" in reason


def test_changed_client_seed_fails_at_the_first_roll(record):
    bad = copy.deepcopy(record)
    bad["fair"]["client_seed"] += "x"
    # Some first roll could by chance match under the other client seed; the first mismatch is named.
    ok, _, where = verify_record(bad)
    assert not ok and where in roll_indexes(bad)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda r: [],
        lambda r: {**r, "format": "other/1"},
        lambda r: {k: v for k, v in r.items() if k != "fair"},
        lambda r: {**r, "fair": {**r["fair"], "server_seed": None}},
        lambda r: {**r, "fair": {k: v for k, v in r["fair"].items() if k != "server_seed"}},
        lambda r: {**r, "actions": [{"roll": [True, 2]}]},
        lambda r: {**r, "actions": "roll"},
    ],
)
def test_malformed_records_raise(record, mangle):
    with pytest.raises(MalformedRecord):
        verify_record(mangle(copy.deepcopy(record)))


def run_cli(arg: str, stdin: str | None = None) -> tuple[int, dict, str]:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", arg],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(lines[0]), done.stderr


def test_cli_ok_from_file_and_stdin(record, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    rolls = len(roll_indexes(record))
    assert run_cli(str(path))[:2] == (0, {"ok": True, "rolls": rolls})
    assert run_cli("-", json.dumps(record))[:2] == (0, {"ok": True, "rolls": rolls})


def test_cli_changed_roll_exit_1_with_index(record):
    bad = copy.deepcopy(record)
    at = roll_indexes(bad)[3]
    bad["actions"][at]["roll"][1] = bad["actions"][at]["roll"][1] % 6 + 1
    code, out, _ = run_cli("-", json.dumps(bad))
    assert code == 1 and out["ok"] is False and out["at"] == at and out["error"]


def test_cli_changed_seed_exit_1_without_index(record):
    bad = copy.deepcopy(record)
    bad["fair"]["server_seed"] = "f" * 64
    code, out, _ = run_cli("-", json.dumps(bad))
    assert code == 1 and out["ok"] is False and "at" not in out


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"format": "ludopat-record/1"}', ""])
def test_cli_malformed_exit_2(text):
    code, out, _ = run_cli("-", text)
    assert code == 2 and set(out) == {"error"}


def test_cli_missing_file_exit_2(tmp_path):
    code, out, _ = run_cli(str(tmp_path / "nope.json"))
    assert code == 2 and "error" in out
