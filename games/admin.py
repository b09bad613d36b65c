"""Games in the admin: read-only records (a form save would race the game's lock and version and
rewind a live game), links to the live page, record and replay; changes only through admin actions
that call moderation's `do_*` functions (which go through the games' own). The reports queue is
accounts/admin_reports.py.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html

from accounts.admin_actions import form_action
from accounts.admin_forms import ReasonForm
from accounts.moderation import chat, voids

from .models import Action, ChatMessage, Game, Pause, Round, Seat


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable by whoever has the view permission; nobody, superusers included, edits in a form."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "index",
        "colours",
        "kind",
        "user",
        "name",
        "level",
        "bot_controlled",
        "resigned",
        "is_away",
        "timeouts_in_row",
    )

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "mode", "ruleset", "status", "round", "version", "owner", "updated")
    list_filter = ("mode", "ruleset", "status")
    search_fields = ("id", "owner__username", "seats__user__username")
    exclude = ("server_seed",)  # the current round's seed stays secret until the round ends
    readonly_fields = ("links",)
    inlines = [SeatInline]
    actions = ["void"]

    def has_void_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.void_game")

    @admin.action(description="Void the round in play (stakes refunded)", permissions=["void"])
    def void(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return form_action(
            self,
            request,
            queryset,
            action="void",
            title="Void the round",
            form_class=ReasonForm,
            apply=lambda game, data: voids.do_void(
                request.user,  # type: ignore[arg-type]  # the admin's user is staff
                game.pk,
                reason=data["reason"],
            ),
            done="round voided.",
        )

    @admin.display(description="pages")
    def links(self, obj: Game) -> str:
        return format_html(
            '<a href="{}">live page</a> · <a href="{}">record</a> · <a href="{}">replay</a>',
            reverse("game", args=[obj.pk]),
            reverse("game_record", args=[obj.pk]),
            reverse("game_replay", args=[obj.pk]),
        )


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):  # the log is append-only
    list_display = ("game", "round", "seq", "kind", "text", "created")
    list_filter = ("kind",)
    search_fields = ("game__id",)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "places", "created")
    search_fields = ("game__id",)
    actions = ["void_result"]

    def has_void_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.void_game")

    @admin.action(description="Remove from the standings (counts for nobody)", permissions=["void"])
    def void_result(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        return form_action(
            self,
            request,
            queryset,
            action="void_result",
            title="Remove from the standings",
            form_class=ReasonForm,
            apply=lambda round_, data: voids.do_void_result(
                request.user,  # type: ignore[arg-type]  # the admin's user is staff
                round_,
                reason=data["reason"],
            ),
            done="removed from the standings.",
        )


@admin.register(Pause)
class PauseAdmin(ReadOnlyAdmin):
    list_display = ("game", "round", "seat", "started", "ends", "ended", "ended_by")
    search_fields = ("game__id",)


# Chat text is shown through the admin's auto-escaping (never mark_safe): it is what a player typed.
@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("created", "game", "name", "user", "text", "hidden_at")
    search_fields = ("game__id", "user__username", "text")
    actions = ["hide"]

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.hide_chatmessage")

    @admin.action(description="Hide the selected messages", permissions=["hide"])
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> HttpResponse | None:
        return form_action(
            self,
            request,
            queryset,
            action="hide",
            title="Hide",
            form_class=ReasonForm,
            apply=lambda message, data: chat.do_hide_message(
                request.user,  # type: ignore[arg-type]  # the admin's user is staff
                message,
                reason=data["reason"],
            ),
            done="hidden.",
        )
