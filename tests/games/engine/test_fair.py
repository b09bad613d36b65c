"""Fair dice (docs/record.md): the shared vectors, the rejection rule, and a chi-square check."""

from __future__ import annotations

import hashlib
import hmac
import re

import pytest

from games.engine import fair
from tests import shared_examples as shared


# Outside the repository (tests/shared_examples.py): skipped where missing, failing in CI.
@pytest.mark.parametrize("vector", shared.fair_dice_vectors(), ids=lambda v: v["client_seed"])
def test_shared_vectors(vector):
    vector = shared.present(vector)
    assert fair.commitment(vector["server_seed"]) == vector["server_seed_sha256"]
    n = len(vector["first_dice"])
    assert [fair.die(vector["server_seed"], vector["client_seed"], i) for i in range(n)] == vector[
        "first_dice"
    ]
    # FairDice hands out the same dice, a two-dice roll using two nonces.
    dice = fair.FairDice(vector["server_seed"], vector["client_seed"])
    rolled = [d for _ in range(n // 2) for d in dice.roll(2)]
    assert rolled == vector["first_dice"][: 2 * (n // 2)] and dice.nonce == 2 * (n // 2)


def test_new_server_seed_is_64_lowercase_hex_and_random():
    seeds = {fair.new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)


def test_commitment_is_sha256_of_the_ascii_seed():
    seed = "ab" * 32
    assert fair.commitment(seed) == hashlib.sha256(seed.encode()).hexdigest()


def test_client_seed_joins_seats_in_order():
    assert fair.client_seed_for(["k7Qp2xZ9", "mN4vB8wR1"]) == "k7Qp2xZ9|mN4vB8wR1"
    assert fair.client_seed_for(["only"]) == "only"


def test_fair_field_reveals_the_seed_only_when_asked():
    dice = fair.FairDice("0" * 64, "a|b")
    assert "server_seed" not in dice.fair_field(revealed=False)
    assert dice.fair_field() == {
        "server_seed": "0" * 64,
        "server_seed_sha256": fair.commitment("0" * 64),
        "client_seed": "a|b",
    }


def test_rejection_retries_with_suffixes(monkeypatch):
    """Bytes 252-255 are skipped; a digest with none below 252 retries with `:1`, `:2`, ..."""
    seen = []

    def fake_digest(key, message, algorithm):
        seen.append(message)
        if message.endswith(b":1"):
            return bytes([255, 253, 9]) + bytes(29)  # first byte below 252 is 9: die 9 % 6 + 1 = 4
        return bytes([252]) * 32

    monkeypatch.setattr(fair.hmac, "digest", fake_digest)
    assert fair.die("0" * 64, "c", 5) == 4
    assert seen == [b"c:5", b"c:5:1"]


def test_first_byte_below_252_decides():
    seed, client = "0" * 64, "alice|bob"
    digest = hmac.digest(seed.encode(), f"{client}:0".encode(), "sha256")
    first = next(b for b in digest if b < 252)
    assert fair.die(seed, client, 0) == first % 6 + 1


# Critical value of the chi-square distribution with 5 degrees of freedom at alpha = 0.001.
CHI2_5DF_ALPHA_0001 = 20.515


@pytest.mark.slow
def test_dice_are_uniform_chi_square():
    seed, client, n = (
        "3f1a0c9e5d7b2a4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9012345678901",
        "x|y",
        600_000,
    )
    counts = [0] * 7
    die = fair.die
    for nonce in range(n):
        counts[die(seed, client, nonce)] += 1
    expected = n / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts[1:])
    assert chi2 < CHI2_5DF_ALPHA_0001, f"chi-square {chi2:.2f} for counts {counts[1:]}"
