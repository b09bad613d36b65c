"""Following a player: `do_follow` and `do_unfollow`."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from .errors import SocialError
from .models import Follow
from .reads import blocked_either_way
from .targets import refuse_unreachable


def do_follow(follower_id: int, followed_id: int) -> bool:
    """`follower_id` follows `followed_id`; False if they already did. Refused for oneself and
    between accounts one of which blocked the other, and for a banned or missing account."""
    if follower_id == followed_id:
        raise SocialError("You can't follow yourself.")
    refuse_unreachable(followed_id, "follow")
    if blocked_either_way(follower_id, followed_id):
        raise SocialError("You can't follow this player.", status=403)
    try:
        with transaction.atomic():
            Follow.objects.create(follower_id=follower_id, followed_id=followed_id)
    except IntegrityError:
        return False
    return True


def do_unfollow(follower_id: int, followed_id: int) -> bool:
    """`follower_id` stops following `followed_id`; False if they did not follow them."""
    deleted, _ = Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).delete()
    return bool(deleted)
