"""A match's score as the bracket shows it: each side's tokens home."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import engine


def tokens_home(players: Sequence[Sequence[str]], tokens: Mapping[str, Sequence[int]]) -> list[int]:
    """Tokens home per seat index, from each seat's colours and the progress of every colour's
    tokens (a saved state's "tokens", or an engine state's)."""
    return [
        sum(1 for colour in colours for t in tokens.get(colour, ()) if t == engine.HOME)
        for colours in players
    ]
