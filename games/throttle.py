"""Refuse floods (actions, chat): a fixed-window counter per game and person in the shared cache (Redis)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def limits() -> tuple[int, int]:
    """(actions, seconds): generous for fast clicking, far below a scripted flood."""
    return tuple(getattr(settings, "LUDOPAT_ACTION_RATE", (30, 10)))  # type: ignore[return-value]


def allow(game_id: str, who: str) -> bool:
    """Whether this person may act in this game now (LUDOPAT_ACTION_RATE)."""
    return within("throttle", f"{game_id}:{who}", *limits())


def within(kind: str, key: str, count: int, window: int) -> bool:
    """Count one more `kind` event for `key`; True while there are at most `count` in the window."""
    key = f"{kind}:{key}"
    if cache.add(key, 1, timeout=window):
        return True
    try:
        return cache.incr(key) <= count
    except ValueError:  # the window expired between add and incr
        cache.add(key, 1, timeout=window)
        return True
