"""A moderator replaces an offensive username: everywhere the old name was copied, and on every open
page of the player's recent games; the old name stays in the audit log."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.actions.core import lock_games
from games.core import broadcast
from games.models import ChatMessage, Game, Seat
from leaderboard.models import Result

from . import audit
from .errors import ModerationError
from .guards import lock_account_for, player_reason, require

# A finished game's page may stay open for a while: its board is pushed the new name too.
RENAMED_PAGES_OPEN = timedelta(days=1)


def do_rename(moderator: User, user: User, *, new_username: str, reason: str) -> User:
    """Replace an offensive username (the old one stays in the audit log)."""
    require(moderator, "accounts.rename_user")
    reason = player_reason(reason)
    new_username = (new_username or "").strip()
    users = get_user_model().objects
    try:
        UnicodeUsernameValidator()(new_username)
    except ValidationError as error:
        raise ModerationError(" ".join(error.messages)) from error
    if not new_username or len(new_username) > 150:
        raise ModerationError("A username is 1 to 150 characters.")
    with transaction.atomic():
        user = lock_account_for(moderator, user)
        _lock_live_games(user)  # before the username (a key) changes: see games.actions.core
        if users.filter(username__iexact=new_username).exclude(pk=user.pk).exists():
            raise ModerationError(f"The name {new_username} is taken.")
        before = {"username": user.username}
        user.username = new_username
        user.save(update_fields=["username"])
        _rename_in_games(user, before["username"])
        audit.record(
            moderator,
            "rename",
            user=user,
            reason=reason,
            before=before,
            after={"username": new_username},
        )
    return user


def _lock_live_games(user: User) -> None:
    """The games the player sits in that can still end a round, locked after the account: a round
    ending in one of them waits for the rename (and then shows the new name), or the rename waits for
    it (and then renames what it wrote)."""
    live = Seat.objects.filter(user=user).exclude(
        game__status__in=[Game.Status.FINISHED, Game.Status.ABANDONED]
    )
    lock_games(live.values_list("game_id", flat=True))


def _rename_in_games(user: User, old: str) -> None:
    """Seats, chat lines and results keep a copy of the name they were written under: the old name
    goes too (the move log and message line name accounts by reference, filled in when shown). Open
    pages of the player's recent games are pushed the new name once the rename commits."""
    Seat.objects.filter(user=user, name=old).update(name=user.username)
    ChatMessage.objects.filter(user=user, name=old).update(name=user.username)
    Result.objects.filter(user=user, name=old).update(name=user.username)
    recent = Q(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING]) | Q(
        game__updated__gte=timezone.now() - RENAMED_PAGES_OPEN
    )
    games = list(
        Seat.objects.filter(recent, user=user).values_list("game_id", flat=True).distinct()
    )
    transaction.on_commit(lambda: _tell_renamed(games))


def _tell_renamed(game_ids: list[str]) -> None:
    for game_id in game_ids:
        broadcast.names_changed(game_id)
