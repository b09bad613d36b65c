"""Refuse floods of actions: a fixed window counter per game and person in the shared cache (Redis)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def limits() -> tuple[int, int]:
    """(actions, seconds): generous for fast clicking, far below a scripted flood."""
    return tuple(getattr(settings, "LUDOPAT_ACTION_RATE", (30, 10)))  # type: ignore[return-value]


def allow(game_id: str, who: str) -> bool:
    count, window = limits()
    key = f"throttle:{game_id}:{who}"
    if cache.add(key, 1, timeout=window):
        return True
    try:
        return cache.incr(key) <= count
    except ValueError:  # the window expired between add and incr
        cache.add(key, 1, timeout=window)
        return True
