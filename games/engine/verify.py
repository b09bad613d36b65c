"""`python -m games.engine verify RECORD.json|-`: check a finished game's rolls (docs/record.md).

The record's `fair` field holds `server_seed`, `server_seed_sha256` and `client_seed`. Verifying checks the
commitment (the SHA-256 of the revealed seed is the one shown from the start), then recomputes every
`roll` in `actions` in order, one nonce per die, starting at 0.

Prints one JSON line: `{"ok": true, "rolls": N}` (N roll actions, exit 0), `{"ok": false, "error": ...,
"at": I}` where I is the index in `actions` of the first roll that does not match (exit 1; no `at` when
the commitment itself fails), or `{"error": ...}` for input that is not a verifiable record (exit 2).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .fair import commitment, die

FORMAT = "ludopat-record/1"


class MalformedRecord(ValueError):
    """Input that is not a record this command can verify (exit 2)."""


def _rolls(record: Any) -> tuple[dict[str, str], list[tuple[int, list[int]]]]:
    """The `fair` field and every (action index, dice) roll, or MalformedRecord saying why not."""
    if not isinstance(record, dict):
        raise MalformedRecord("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise MalformedRecord(f"format must be {FORMAT!r}")
    fair = record.get("fair")
    if not isinstance(fair, dict):
        raise MalformedRecord("the record has no 'fair' object")
    for key in ("server_seed_sha256", "client_seed"):
        if not isinstance(fair.get(key), str):
            raise MalformedRecord(f"fair.{key} must be a string")
    if "server_seed" not in fair:
        raise MalformedRecord("fair.server_seed is not revealed (the game is not over)")
    if not isinstance(fair["server_seed"], str) or not fair["server_seed"].isascii():
        raise MalformedRecord("fair.server_seed must be a string of ASCII characters")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise MalformedRecord("actions must be a list")
    rolls = []
    for at, action in enumerate(actions):
        if not isinstance(action, dict):
            raise MalformedRecord(f"action {at} is not an object")
        if "roll" not in action:
            continue
        dice = action["roll"]
        if not isinstance(dice, list) or not all(type(d) is int for d in dice):
            raise MalformedRecord(f"action {at}: roll must be a list of integers")
        rolls.append((at, dice))
    return fair, rolls


def verify_record(record: Any) -> tuple[bool, str, int | None]:
    """(ok, reason, at): whether every roll of a finished record is the fair one.

    `at` is the action index of the first roll that does not match (None when all match or when the
    commitment fails). Raises MalformedRecord (a ValueError) for input that is not a verifiable record.

    >>> from games.engine.fair import FairDice
    >>> d = FairDice("0" * 64, "alice|bob")
    >>> rec = {"format": FORMAT, "actions": [{"roll": d.roll(2)}], "fair": d.fair_field()}
    >>> verify_record(rec)
    (True, '', None)
    >>> rec["actions"][0]["roll"] = [6, 6]
    >>> verify_record(rec)
    (False, 'roll 0 (action 0) shows [6, 6]; the fair dice are [3, 1]', 0)
    """
    fair, rolls = _rolls(record)
    seed = fair["server_seed"]
    if commitment(seed) != fair["server_seed_sha256"]:
        return (
            False,
            "sha256(server_seed) is not server_seed_sha256: the seed is not the one committed",
            None,
        )
    client = fair["client_seed"]
    nonce = 0
    for number, (at, dice) in enumerate(rolls):
        fair_dice = [die(seed, client, nonce + i) for i in range(len(dice))]
        nonce += len(dice)
        if dice != fair_dice:
            return (
                False,
                f"roll {number} (action {at}) shows {dice}; the fair dice are {fair_dice}",
                at,
            )
    return True, "", None


def count_rolls(record: Any) -> int:
    """The number of roll actions in a record (MalformedRecord if it is not one)."""
    return len(_rolls(record)[1])


def verify_main(path: str) -> int:
    """The command: read a record from `path` (or standard input for `-`), print one JSON line."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        return _emit({"error": f"can't read {path}: {error}"}, 2)
    try:
        record = json.loads(text)
        ok, reason, at = verify_record(record)
    except (
        ValueError,
        RecursionError,
    ) as error:  # JSONDecodeError and MalformedRecord are ValueErrors
        return _emit({"error": str(error) or type(error).__name__}, 2)
    if ok:
        return _emit({"ok": True, "rolls": count_rolls(record)}, 0)
    result: dict[str, Any] = {"ok": False, "error": reason}
    if at is not None:
        result["at"] = at
    return _emit(result, 1)


def _emit(data: dict[str, Any], code: int) -> int:
    print(json.dumps(data))
    return code
