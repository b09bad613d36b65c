"""static/js/verify.js in Chromium, alone: the browser's dice must be the server's (docs/record.md).

The script is loaded into an empty page served at http://127.0.0.1 (a secure context, so Web Crypto is
there) and run on the shared fair-dice vectors and on records played with games.engine.fair.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

from games.engine.verify import verify_record
from tests import shared_examples as shared
from tests.browser.records import play_record

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
VERIFY_JS = ROOT / "static" / "js" / "verify.js"
BLANK = "http://127.0.0.1/verify-js-test"


@pytest.fixture
def js(browser):
    """A blank page with verify.js loaded; no server involved."""
    context = browser.new_context()
    page = context.new_page()
    page.route(BLANK, lambda route: route.fulfill(body="<!doctype html><title>t</title>",
                                                  content_type="text/html"))  # fmt: skip
    page.goto(BLANK)
    page.add_script_tag(path=str(VERIFY_JS))
    page.wait_for_function("() => window.LudopatFair !== undefined")
    yield page
    context.close()


def verify(page, record):
    return page.evaluate("r => LudopatFair.verifyRecord(r).then(v => { delete v.checked; return v; })",
                         record)  # fmt: skip


# Outside the repository (tests/shared_examples.py): skipped where missing, failing in CI.
@pytest.mark.parametrize("vector", shared.fair_dice_vectors(), ids=lambda v: v["client_seed"])
def test_browser_dice_match_the_shared_vectors(js, vector):
    vector = shared.present(vector)
    seed, client, expected = vector["server_seed"], vector["client_seed"], vector["first_dice"]
    assert js.evaluate("s => LudopatFair.sha256Hex(s)", seed) == vector["server_seed_sha256"]
    dice = js.evaluate("([s, c, n]) => LudopatFair.dice(s, c, n)", [seed, client, len(expected)])
    assert dice == expected


@pytest.mark.parametrize("ruleset", ["classic", "duel", "places", "twodice"])
def test_a_fair_record_verifies_in_the_browser(js, ruleset):
    record = play_record(ruleset)
    rolls = [a["roll"] for a in record["actions"] if "roll" in a]
    assert verify_record(record)[0]
    result = verify(js, record)
    assert result["ok"] is True
    assert result["rolls"] == len(rolls)
    assert result["dice"] == sum(len(r) for r in rolls)  # two-dice rolls use two nonces


def test_a_changed_roll_is_named(js):
    record = play_record("twodice")
    rolls = [i for i, a in enumerate(record["actions"]) if "roll" in a]
    at = rolls[7]
    record["actions"][at]["roll"] = [d % 6 + 1 for d in record["actions"][at]["roll"]]
    result = verify(js, record)
    assert result["ok"] is False and result["reason"] == "mismatch"
    assert result["roll"] == 8 and result["at"] == at
    assert result["at"] == verify_record(record)[2]  # the same roll the Python verifier names
    assert f"Roll 8 (action {at} of the record) does not match" in result["message"]


def test_a_swapped_seed_fails_the_commitment(js):
    record = play_record("classic")
    record["fair"]["server_seed"] = "f" * 64
    result = verify(js, record)
    assert result["reason"] == "commitment"
    assert "not the one committed to" in result["message"]


def test_an_unfinished_game_cannot_be_verified_yet(js):
    record = play_record("classic")
    del record["fair"]["server_seed"]
    result = verify(js, record)
    assert result["reason"] == "unfinished"
    assert "not over yet" in result["message"]


@pytest.mark.parametrize("record", [None, [], {"format": "x"}, {"fair": {"client_seed": "a"}}])
def test_what_is_not_a_record_is_said_so(js, record):
    assert verify(js, record)["reason"] == "malformed"


def test_a_digest_without_a_byte_below_252_retries_with_a_suffix(js):
    """Force the (1 in 2**118) case: the first digest is all 255s, so the die comes from "...:0:1"."""
    seed, client = "0" * 64, "alice|bob"
    js.evaluate(
        """() => {
        const subtle = crypto.subtle, sign = subtle.sign.bind(subtle);
        window.signed = [];
        subtle.sign = async (alg, key, data) => {
          const message = new TextDecoder().decode(data);
          window.signed.push(message);
          return message.endsWith(":0") ? new Uint8Array(32).fill(255).buffer : sign(alg, key, data);
        };
      }"""
    )
    die = js.evaluate("([s, c]) => LudopatFair.die(s, c, 0)", [seed, client])
    digest = hmac.digest(seed.encode(), f"{client}:0:1".encode(), hashlib.sha256)
    expected = next(b for b in digest if b < 252) % 6 + 1
    assert die == expected
    assert js.evaluate("window.signed") == [f"{client}:0", f"{client}:0:1"]
