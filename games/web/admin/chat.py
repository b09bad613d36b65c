"""The games' chat in the admin: read-only, messages hidden only through the audited action."""

from __future__ import annotations

from django.contrib import admin

from accounts.moderation import chat
from accounts.web.admin_actions import permission_to, reason_action
from accounts.web.admin_forms import ReasonForm

from ...models import ChatMessage
from .read_only import ReadOnlyAdmin


# Chat text is shown through the admin's auto-escaping (never mark_safe): it is what a player typed.
@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("created", "game", "name", "user", "text", "hidden_at")
    search_fields = ("game__id", "user__username", "text")
    actions = ["hide"]

    has_hide_permission = permission_to("games.hide_chatmessage")
    hide = reason_action(
        "hide",
        "Hide the selected messages",
        permission="hide",
        title="Hide",
        form_class=ReasonForm,
        apply=lambda moderator, message, data: chat.do_hide_message(
            moderator, message, reason=data["reason"]
        ),
        done="hidden.",
    )
