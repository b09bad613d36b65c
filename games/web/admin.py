"""Games in the admin: read-only records (a form save would race the game's lock and version and
rewind a live game), links to the live page, record and replay; changes only through admin actions
that call moderation's `do_*` functions (which go through the games' own). The reports queue is
accounts/web/admin_reports.py.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html

from accounts.moderation import chat, tournaments, voids
from accounts.web.admin_actions import form_action
from accounts.web.admin_forms import ReasonForm
from ludopat.refusals import Refusal

from ..models import Action, ChatMessage, Game, Pause, Round, Seat
from ..tournaments import reads as tournament_reads
from ..tournaments.models import Tournament
from ..tournaments.registration import open_tournament
from ..tournaments.rules import parse_buy_in, parse_size, parse_timer, stalled_minutes


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


# --- tournaments ---------------------------------------------------------------------------------------


class StalledFilter(admin.SimpleListFilter):
    title = "bracket"
    parameter_name = "stalled"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", f"No progress for {stalled_minutes()} minutes")]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> QuerySet[Tournament]:
        if self.value() == "yes":
            return queryset.filter(pk__in=tournament_reads.stalled().values("pk"))
        return queryset


class ScheduleTournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ("size", "buy_in", "timer_seconds", "scheduled_for")
        help_texts = {
            "scheduled_for": "Beat starts it then; if it is not full then, it is cancelled and "
            "every buy-in returned. Leave empty for a sit-and-go that starts once full."
        }

    def clean(self) -> dict:
        data = super().clean() or {}
        try:
            parse_size(data.get("size"))
            parse_buy_in(data.get("buy_in"))
            parse_timer(data.get("timer_seconds"))
        except Refusal as error:
            raise forms.ValidationError(str(error)) from None
        return data


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Read-only as every game record; an Admin schedules one (the add form calls the tournaments'
    `open_tournament`) and cancels through moderation's audited service."""

    list_display = ("pk", "size", "buy_in", "status", "scheduled_for", "started", "stalled")
    list_filter = ("status", StalledFilter)
    readonly_fields = ("links",)
    actions = ["cancel"]
    form = ScheduleTournamentForm

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.has_perm("games.add_tournament")

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None) -> tuple:
        return ("links",) if obj is None else ()

    def get_fields(self, request: HttpRequest, obj: Model | None = None) -> list:
        if obj is None:
            return ["size", "buy_in", "timer_seconds", "scheduled_for"]
        return [f.name for f in Tournament._meta.fields] + ["links"]

    def save_model(
        self, request: HttpRequest, obj: Tournament, form: forms.Form, change: bool
    ) -> None:
        made = open_tournament(obj.size, obj.buy_in, obj.timer_seconds, obj.scheduled_for)
        obj.pk = made.pk  # the admin's redirect names the row the service made

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.cancel_tournament")

    @admin.action(description="Cancel (every buy-in returned)", permissions=["cancel"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        return form_action(
            self,
            request,
            queryset,
            action="cancel",
            title="Cancel the tournament",
            form_class=ReasonForm,
            apply=lambda tournament, data: tournaments.do_cancel_tournament(
                request.user,  # type: ignore[arg-type]  # the admin's user is staff
                tournament.pk,
                reason=data["reason"],
            ),
            done="cancelled, every buy-in returned.",
        )

    @admin.display(boolean=True, description="stalled")
    def stalled(self, obj: Tournament) -> bool:
        return tournament_reads.stalled().filter(pk=obj.pk).exists()

    @admin.display(description="pages")
    def links(self, obj: Tournament) -> str:
        return format_html('<a href="{}">bracket</a>', reverse("tournament", args=[obj.pk]))
