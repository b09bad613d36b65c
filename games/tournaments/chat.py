"""A tournament's chat, on its page: the game chat's rules (games.actions.chat: the cleaning, the
length, the rate, the quick phrases, mutes and bans), its table (ChatMessage, with `tournament` set)
and moderation's reports and hiding, for the bracket's players and spectators.

Who says what: any signed-in account that is not banned writes, spectators included (the page is the
tournament's public room, as a Lichess arena's chat is); a player whose own match is in play sends
only the quick phrases, as at their table, so the chat is no side channel for coaching while their
clock runs; before, between and after their matches they write freely. Guests read. A banned account
neither writes nor reads it as itself (the ban ends its sessions and closes its sockets, and no line
is pushed to a banned viewer), and its lines leave the chat while the ban is in force.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.social.reads import blocked_by
from accounts.users.sanctions import ban_in_force, ban_notice, mute_notice
from ludopat import throttle

from ..actions.chat import MAX_LENGTH, QUICK_PHRASES, ChatMode, TooFast, clean_text, rate
from ..core.actors import Actor
from ..core.errors import Banned, Conflict, GameError, GameNotFound, NotAllowed
from ..models import ChatMessage, Game
from . import live
from .models import Tournament, TournamentMatch


def messages(
    tournament: Tournament, limit: int = 100, viewer_id: int | None = None
) -> list[ChatMessage]:
    """The chat's last `limit` lines that no moderator hid and whose author is not banned now (a
    banned account's lines leave the chat with them; they come back if the ban is lifted), oldest
    first; for `viewer_id`, without the lines of the accounts they blocked."""
    shown = ChatMessage.objects.filter(tournament=tournament, hidden_at__isnull=True).exclude(
        _author_banned()
    )
    if viewer_id is not None:
        shown = shown.exclude(user_id__in=blocked_by(viewer_id))
    return list(shown.order_by("-created", "-pk")[:limit])[::-1]


def _author_banned() -> Q:
    now = timezone.now()
    return Q(user__banned_at__isnull=False) & (
        Q(user__banned_until__isnull=True) | Q(user__banned_until__gt=now)
    )


def reported_by(tournament: Tournament, user_id: int | None) -> set[int]:
    """Ids of the chat's lines this account has reported."""
    if user_id is None:
        return set()
    # Through the reports' relation: the report model is moderation's, above this module.
    reported = ChatMessage.objects.filter(tournament=tournament, reports__reporter_id=user_id)
    return set(reported.values_list("pk", flat=True))


def playing_now(tournament: Tournament, user_id: int | None) -> bool:
    """The account plays a match of this tournament right now (its room is in play)."""
    if user_id is None or tournament.status != Tournament.Status.PLAYING:
        return False
    in_play: QuerySet[TournamentMatch] = TournamentMatch.objects.filter(
        tournament=tournament,
        winner__isnull=True,
        game__status=Game.Status.PLAYING,
    ).filter(Q(first__user_id=user_id) | Q(second__user_id=user_id))
    return in_play.exists()


def mode_for(tournament: Tournament, user_id: int | None) -> str:
    """What this viewer may write now: nothing as a guest, the quick phrases during their own match,
    anything otherwise."""
    if user_id is None:
        return ChatMode.CLOSED
    return ChatMode.QUICK if playing_now(tournament, user_id) else ChatMode.FREE


def do_tournament_chat(tournament_id: int, actor: Actor, text: str) -> ChatMessage:
    """Someone on the tournament's page says something (see the module's rules)."""
    cleaned = clean_text(text)
    if not cleaned:
        raise GameError("Write a message first.")
    if len(cleaned) > MAX_LENGTH:
        raise GameError(f"A message is at most {MAX_LENGTH} characters.")
    user = get_user_model().objects.filter(pk=actor.user_id).first() if actor.user_id else None
    if user is None:
        raise NotAllowed("Log in to chat.")
    with transaction.atomic():
        # The tournament's row orders a message after a ban or a match start that committed first.
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            raise GameNotFound("There is no such tournament.")
        if ban_in_force(user):
            raise Banned(ban_notice(user))
        muted = mute_notice(user)
        if muted:
            raise NotAllowed(muted)  # "Muted until <when>: <the moderator's reason>"
        if mode_for(tournament, user.pk) == ChatMode.QUICK and cleaned not in QUICK_PHRASES:
            raise Conflict(
                "While your match is in play, pick one of the quick phrases; "
                "write freely between your matches."
            )
        if not throttle.within("chat", f"t{tournament.pk}:{user.pk}", *rate()):
            raise TooFast("You're sending messages too fast: wait a moment.")
        message = ChatMessage.objects.create(
            tournament=tournament, user=user, name=user.get_username(), text=cleaned
        )
        live.chat_on_commit(tournament.pk, message.pk)
        return message
