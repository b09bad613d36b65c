"""Games in the admin: rooms with their seats, the action log, rounds and pauses, read-only (read_only),
with links to the live page, record and replay; a round in play or a finished one voided only through
admin actions that call moderation's `do_*` functions (which go through the games' own)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from accounts.moderation import voids
from accounts.web.admin_actions import permission_to, reason_action
from accounts.web.admin_forms import ReasonForm

from ...models import Action, Game, Pause, Round, Seat
from .read_only import ReadOnlyAdmin, ReadOnlyTabularInline


class SeatInline(ReadOnlyTabularInline):
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


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "mode", "ruleset", "status", "round", "version", "owner", "updated")
    list_filter = ("mode", "ruleset", "status")
    search_fields = ("id", "owner__username", "seats__user__username")
    exclude = ("server_seed",)  # the current round's seed stays secret until the round ends
    readonly_fields = ("links",)
    inlines = [SeatInline]
    actions = ["void"]

    has_void_permission = permission_to("games.void_game")
    void = reason_action(
        "void",
        "Void the round in play (stakes refunded)",
        permission="void",
        title="Void the round",
        form_class=ReasonForm,
        apply=lambda moderator, game, data: voids.do_void(
            moderator, game.pk, reason=data["reason"]
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

    has_void_permission = permission_to("games.void_game")
    void_result = reason_action(
        "void_result",
        "Remove from the standings (counts for nobody)",
        permission="void",
        title="Remove from the standings",
        form_class=ReasonForm,
        apply=lambda moderator, round_, data: voids.do_void_result(
            moderator, round_, reason=data["reason"]
        ),
        done="removed from the standings.",
    )


@admin.register(Pause)
class PauseAdmin(ReadOnlyAdmin):
    list_display = ("game", "round", "seat", "started", "ends", "ended", "ended_by")
    search_fields = ("game__id",)
