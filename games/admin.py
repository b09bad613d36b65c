"""Games in the admin: read-only records (a form save would race the game's lock and version and
rewind a live game), links to the live page, record and replay; changes only through admin actions
that call the games' `do_*` functions. The reports queue is here too: open reports first, oldest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.db.models import F, Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from accounts import moderation
from accounts.admin_actions import form_action
from accounts.admin_forms import DURATIONS, ReasonForm, ends_after

from .models import Action, ChatMessage, ChatReport, Game, Pause, Round, Seat

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups, _FieldOpts, _FieldsetSpec
    from django.utils.functional import _StrOrPromise

# Messages shown around a reported one.
CONTEXT_BEFORE, CONTEXT_AFTER = 8, 4


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
        from .actions.moderation import do_void

        return form_action(
            self,
            request,
            queryset,
            action="void",
            title="Void the round",
            form_class=ReasonForm,
            apply=lambda game, data: do_void(request.user, game.pk, data["reason"]),  # type: ignore[arg-type]  # the admin's user is staff
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
        from .actions.moderation import do_void_result

        return form_action(
            self,
            request,
            queryset,
            action="void_result",
            title="Remove from the standings",
            form_class=ReasonForm,
            apply=lambda round_, data: do_void_result(request.user, round_, data["reason"]),  # type: ignore[arg-type]  # the admin's user is staff
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
        from .actions.moderation import do_hide_message

        return form_action(
            self,
            request,
            queryset,
            action="hide",
            title="Hide",
            form_class=ReasonForm,
            apply=lambda message, data: do_hide_message(request.user, message, data["reason"]),  # type: ignore[arg-type]  # the admin's user is staff
            done="hidden.",
        )


def conversation(message: ChatMessage, mark: bool = True) -> str:
    """The messages around `message` in its game, the reported one marked."""
    around = ChatMessage.objects.filter(game_id=message.game_id)
    earlier = around.filter(created__lte=message.created).exclude(pk=message.pk)
    before = list(earlier.order_by("-created", "-pk")[:CONTEXT_BEFORE])[::-1]
    after = list(
        around.filter(created__gte=message.created)
        .exclude(pk=message.pk)
        .exclude(pk__in=[m.pk for m in before])
        .order_by("created", "pk")[:CONTEXT_AFTER]
    )
    rows = format_html_join(
        "",
        '<li class="{}" data-testid="context-message"><strong>{}</strong>: {}{}</li>',
        (
            (
                "reported" if m.pk == message.pk and mark else "",
                m.name,
                m.text,
                " (hidden)" if m.hidden_at else "",
            )
            for m in [*before, message, *after]
        ),
    )
    return format_html('<ol class="conversation" data-testid="conversation">{}</ol>', rows)


class ResolveReportForm(forms.ModelForm):
    """The report's page is its resolution form: what to do, for how long, and why."""

    resolution = forms.ChoiceField(
        choices=[
            (ChatReport.Outcome.DISMISSED, "Dismiss"),
            (ChatReport.Outcome.HIDDEN, "Hide the message"),
            (ChatReport.Outcome.MUTED, "Mute the player"),
            (ChatReport.Outcome.BANNED, "Ban the player"),
        ]
    )
    duration = forms.ChoiceField(
        choices=[("", "Until lifted (bans only)"), *DURATIONS],
        required=False,
        label="For",
        help_text="How long a mute or ban lasts.",
    )
    note = forms.CharField(
        max_length=200,
        required=False,
        label="Reason",
        help_text="A muted or banned player sees it.",
    )

    class Meta:
        model = ChatReport
        fields: list[str] = []

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("resolution") == ChatReport.Outcome.MUTED and not data.get("duration"):
            raise forms.ValidationError("Say how long the mute lasts.")
        if data.get("resolution") == ChatReport.Outcome.HIDDEN and not self.instance.message_id:
            raise forms.ValidationError("A player report has no message to hide.")
        punished = data.get("resolution") in (ChatReport.Outcome.MUTED, ChatReport.Outcome.BANNED)
        if punished and not (data.get("note") or "").strip():
            raise forms.ValidationError("Give a reason: the player is shown it.")
        return data


class OpenFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "open"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, str]]:
        return [("yes", "Open"), ("no", "Resolved")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    form = ResolveReportForm
    list_display = ("created", "status", "what", "player", "reporter", "reason")
    list_filter = (OpenFilter, "outcome")
    list_select_related = ("message", "reported", "reporter")
    search_fields = ("reported__username", "reporter__username", "message__text")
    ordering = (F("resolved_at").asc(nulls_first=True), "created", "pk")  # open first, oldest first
    readonly_fields = (
        "status",
        "player",
        "reporter",
        "reason",
        "created",
        "game_link",
        "players",
        "context",
        "resolved_by",
        "resolved_at",
        "note",
    )

    def get_fieldsets(self, request: HttpRequest, obj: ChatReport | None = None) -> _FieldsetSpec:
        shown: _FieldGroups = [
            "status",
            "created",
            "reporter",
            "reason",
            "player",
            "game_link",
            "players",
        ]
        sets: list[tuple[_StrOrPromise | None, _FieldOpts]] = [(None, {"fields": shown})]
        if obj is not None and obj.message_id:
            sets.append(("Conversation", {"fields": ["context"]}))
        if obj is not None and obj.is_open:
            sets.append(("Resolve", {"fields": ["resolution", "duration", "note"]}))
        else:
            sets.append(("Resolved", {"fields": ["resolved_by", "resolved_at", "note"]}))
        return sets

    def get_readonly_fields(
        self, request: HttpRequest, obj: ChatReport | None = None
    ) -> list[str] | tuple[str, ...]:
        if obj is not None and obj.is_open:
            return [f for f in self.readonly_fields if f != "note"]
        return self.readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players report; moderators resolve

    def has_delete_permission(self, request: HttpRequest, obj: ChatReport | None = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: ChatReport, form: forms.Form, change: bool
    ) -> None:
        data = form.cleaned_data
        until = ends_after(data["duration"]) if data.get("duration") else None
        try:
            moderation.do_resolve_report(
                request.user, obj, data["resolution"], data.get("note", ""), until
            )
        except moderation.ModerationError as error:
            self.message_user(request, str(error), messages.ERROR)

    @admin.display(description="status")
    def status(self, obj: ChatReport) -> str:
        return obj.get_outcome_display()

    @admin.display(description="reported")
    def what(self, obj: ChatReport) -> str:
        if obj.message is not None:
            return format_html("message: “{}”", obj.message.text)
        return "player"

    @admin.display(description="player")
    def player(self, obj: ChatReport) -> str:
        target = moderation.report_target(obj)
        if target is None:
            return "-"
        url = reverse("admin:accounts_user_change", args=[target.pk])
        return format_html('<a href="{}">{}</a>', url, target.username)

    @admin.display(description="game")
    def game_link(self, obj: ChatReport) -> str:
        game_id = obj.game_id or (obj.message.game_id if obj.message is not None else None)
        if not game_id:
            return "-"
        return format_html(
            '<a href="{}">{}</a> (<a href="{}">live page</a>)',
            reverse("admin:games_game_change", args=[game_id]),
            game_id,
            reverse("game", args=[game_id]),
        )

    @admin.display(description="players")
    def players(self, obj: ChatReport) -> str:
        game_id = obj.game_id or (obj.message.game_id if obj.message is not None else None)
        if not game_id:
            return "-"
        seats = Seat.objects.filter(game_id=game_id).select_related("user")
        return ", ".join(seat.display_name for seat in seats)

    @admin.display(description="conversation")
    def context(self, obj: ChatReport) -> str:
        return conversation(obj.message) if obj.message is not None else "-"
