"""Provably fair dice (docs/record.md "Fair dice").

The server commits to a secret `server_seed` by showing its SHA-256 before the first roll; every die is
HMAC-SHA256(server_seed, f"{client_seed}:{nonce}") reduced without bias, so once the seed is revealed
anyone can recompute every roll of a finished game.

>>> dice = FairDice("0" * 64, "alice|bob")
>>> dice.roll(2), dice.roll(1), dice.nonce
([3, 1], [2], 3)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

# 252 = 42 x 6: bytes 0..251 map evenly onto six faces; 252..255 are rejected.
_LIMIT = 252


def new_server_seed() -> str:
    """32 bytes from a cryptographic source as 64 lowercase hex characters.

    >>> s = new_server_seed()
    >>> len(s), s == s.lower()
    (64, True)
    """
    return secrets.token_hex(32)


def commitment(server_seed: str) -> str:
    """The SHA-256 (hex) of the seed's 64 ASCII characters, shown before the first roll.

    >>> commitment("0" * 64)[:16]
    '60e05bd1b195af2f'
    """
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def client_seed_for(seats: Iterable[str]) -> str:
    """Each seat's client seed joined with `|` in seat order.

    >>> client_seed_for(["alice", "bob"])
    'alice|bob'
    """
    return "|".join(seats)


def die(server_seed: str, client_seed: str, nonce: int) -> int:
    """The die (1-6) for `nonce`: the first digest byte below 252, mod 6, plus 1.

    If all 32 bytes are 252 or more (about once in 2**118 dice), retry with the messages
    `client_seed:nonce:1`, `:2`, ... as docs/record.md "Fair dice" says.

    >>> [die("0" * 64, "alice|bob", n) for n in range(4)]
    [3, 1, 2, 3]
    """
    key = server_seed.encode("ascii")
    base = f"{client_seed}:{nonce}"
    message = base
    retry = 0
    while True:
        digest = hmac.digest(key, message.encode("utf-8"), "sha256")
        for byte in digest:
            if byte < _LIMIT:
                return byte % 6 + 1
        retry += 1
        message = f"{base}:{retry}"


class FairDice:
    """Hands out a game's dice with increasing nonces (a two-dice roll uses two).

    >>> d = FairDice(client_seed="a|b")
    >>> d.commitment == commitment(d.server_seed), d.nonce
    (True, 0)
    """

    def __init__(self, server_seed: str | None = None, client_seed: str = "", nonce: int = 0):
        self.server_seed = new_server_seed() if server_seed is None else server_seed
        self.client_seed = client_seed
        self.nonce = nonce

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def next_die(self) -> int:
        value = die(self.server_seed, self.client_seed, self.nonce)
        self.nonce += 1
        return value

    def roll(self, count: int) -> list[int]:
        """`count` dice, one nonce each, in order."""
        return [self.next_die() for _ in range(count)]

    def fair_field(self, revealed: bool = True) -> dict[str, str]:
        """docs/record.md's `fair` object; `server_seed` only once the game is over (`revealed`)."""
        data = {"server_seed_sha256": self.commitment, "client_seed": self.client_seed}
        if revealed:
            data["server_seed"] = self.server_seed
        return data
