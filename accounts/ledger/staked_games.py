"""Invariants tying games to their escrows (filled in once games carry a stake)."""

from __future__ import annotations


def staked_game_problems() -> list[str]:
    return []
