"""A moderator hides a chat message: it leaves every open page at once and the chat for good (it stays
in the database for the record and the audit log)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.core import broadcast
from games.models import ChatMessage
from games.tournaments import live as tournament_live

from . import audit
from .guards import require


def do_hide_message(moderator: User, message: ChatMessage, *, reason: str) -> ChatMessage:
    """The message disappears from every open page at once and from the chat for good (it stays in
    the database for the record and the audit log)."""
    require(moderator, "games.hide_chatmessage")
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message.pk)
        if message.hidden_at is not None:
            return message
        message.hidden_at, message.hidden_by = timezone.now(), moderator
        message.save(update_fields=["hidden_at", "hidden_by"])
        audit.record(
            moderator,
            "hide_message",
            user=message.user,
            game_id=message.game_id or "",
            reason=reason,
            before={"message": message.pk, "text": message.text},
            after={"hidden": True},
        )
        game_id, message_id = message.game_id, message.pk
        if message.tournament_id is not None:  # a tournament page's chat
            tournament_live.chat_hidden_on_commit(message.tournament_id, message_id)
        elif game_id is not None:
            transaction.on_commit(lambda: broadcast.chat_hidden(game_id, message_id))
    return message
