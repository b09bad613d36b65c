"""Reads of follows and blocks."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from .models import Block, Follow


def followed_ids(user_id: int) -> list[int]:
    """The accounts `user_id` follows, the latest followed first."""
    rows = Follow.objects.filter(follower_id=user_id).order_by("-created", "-pk")
    return list(rows.values_list("followed_id", flat=True))


def follows(follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def blocks(blocker_id: int, blocked_id: int) -> bool:
    """Whether `blocker_id` blocked `blocked_id` (one way)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_either_way(a_id: int, b_id: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def blocked_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """Every pair among `user_ids` in which one blocked the other, in one query (a table's seating)."""
    ids = set(user_ids)
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


def blocked_ids(user_id: int) -> set[int]:
    """Everyone `user_id` blocked or was blocked by (whom a waiting list keeps away from them)."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
    return {
        other
        for pair in rows.values_list("blocker_id", "blocked_id")
        for other in pair
        if other != user_id
    }
