"""Blocking a player: `do_block` and `do_unblock`. A block ends the follows between the two, both ways:
a blocked player keeps no window on the blocker's games through their Friends page."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from .errors import SocialError
from .models import Block, Follow
from .targets import refuse_unreachable


def do_block(blocker_id: int, blocked_id: int) -> bool:
    """`blocker_id` blocks `blocked_id`; False if they already did. Refused for oneself and for a
    banned or missing account (a ban already keeps them away)."""
    if blocker_id == blocked_id:
        raise SocialError("You can't block yourself.")
    refuse_unreachable(blocked_id, "block")
    with transaction.atomic():
        Follow.objects.filter(
            Q(follower_id=blocker_id, followed_id=blocked_id)
            | Q(follower_id=blocked_id, followed_id=blocker_id)
        ).delete()
        try:
            with transaction.atomic():
                Block.objects.create(blocker_id=blocker_id, blocked_id=blocked_id)
        except IntegrityError:
            return False
    return True


def do_unblock(blocker_id: int, blocked_id: int) -> bool:
    """`blocker_id` lifts their block of `blocked_id`; False if there was none."""
    deleted, _ = Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()
    return bool(deleted)
