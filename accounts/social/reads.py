"""Reads of follows and blocks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

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


@dataclass(frozen=True)
class Relation:
    """What a viewer's profile of another player offers: follow or unfollow, block or unblock."""

    following: bool
    blocking: bool  # the viewer blocked them
    blocked: bool  # they blocked the viewer: no follow offered


def relation(viewer_id: int, player_id: int) -> Relation:
    """The viewer's follow and blocks with `player_id`, in two queries."""
    pairs = set(
        Block.objects.filter(
            Q(blocker_id=viewer_id, blocked_id=player_id)
            | Q(blocker_id=player_id, blocked_id=viewer_id)
        ).values_list("blocker_id", flat=True)
    )
    return Relation(follows(viewer_id, player_id), viewer_id in pairs, player_id in pairs)


def blocked_by(blocker_id: int) -> QuerySet[Block, int]:
    """The accounts `blocker_id` blocked, as a subquery (a chat read leaves their lines out in the
    same query)."""
    return Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id", flat=True)


def hides_lines_of(viewer_id: int | None, author_id: int | None) -> bool:
    """Whether `viewer_id` blocked the author of a chat line: the line is not shown to them (one
    indexed query per viewer and line, only between two accounts)."""
    if viewer_id is None or author_id is None or viewer_id == author_id:
        return False
    return blocks(viewer_id, author_id)


def blocked_list(blocker_id: int) -> list[tuple[int, str]]:
    """(id, name) of the accounts `blocker_id` blocked, by name (their Friends page lists them)."""
    rows = Block.objects.filter(blocker_id=blocker_id).order_by("blocked__username")
    return list(rows.values_list("blocked_id", "blocked__username"))


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
