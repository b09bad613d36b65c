"""The reports queue in the admin: open reports first, oldest first; a report's page shows what was
reported (a message with the conversation around it, or a player) and is the form that resolves it
(moderation's reports.do_resolve_report). The web layer's part of moderation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.db.models import F, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.models import ChatMessage, Seat

from ..moderation import desk_reads, reports
from ..moderation.errors import ModerationError
from ..moderation.models import Report
from .admin_actions import moderator_of
from .admin_forms import DURATIONS, ends_after

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups, _FieldOpts, _FieldsetSpec
    from django.utils.functional import _StrOrPromise


def conversation(message: ChatMessage, mark: bool = True) -> str:
    """The messages around `message` in its game (the desk's reading of them), the reported one
    marked."""
    around = desk_reads.conversation(message)
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
            for m in around
        ),
    )
    return format_html('<ol class="conversation" data-testid="conversation">{}</ol>', rows)


class ResolveReportForm(forms.ModelForm):
    """The report's page is its resolution form: what to do, for how long, and why."""

    resolution = forms.ChoiceField(
        choices=[
            (Report.Outcome.DISMISSED, "Dismiss"),
            (Report.Outcome.HIDDEN, "Hide the message"),
            (Report.Outcome.MUTED, "Mute the player"),
            (Report.Outcome.BANNED, "Ban the player"),
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
        model = Report
        fields: list[str] = []

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("resolution") == Report.Outcome.MUTED and not data.get("duration"):
            raise forms.ValidationError("Say how long the mute lasts.")
        if data.get("resolution") == Report.Outcome.HIDDEN and not self.instance.message_id:
            raise forms.ValidationError("A player report has no message to hide.")
        punished = data.get("resolution") in (Report.Outcome.MUTED, Report.Outcome.BANNED)
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


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """A report of a message or of a player: the queue's list and each report's resolution form."""

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

    def get_fieldsets(self, request: HttpRequest, obj: Report | None = None) -> _FieldsetSpec:
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
        self, request: HttpRequest, obj: Report | None = None
    ) -> list[str] | tuple[str, ...]:
        if obj is not None and obj.is_open:
            return [f for f in self.readonly_fields if f != "note"]
        return self.readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players report; moderators resolve

    def has_delete_permission(self, request: HttpRequest, obj: Report | None = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Report, form: forms.Form, change: bool) -> None:
        data = form.cleaned_data
        until = ends_after(data["duration"]) if data.get("duration") else None
        try:
            reports.do_resolve_report(
                moderator_of(request),
                obj,
                outcome=data["resolution"],
                reason=data.get("note", ""),
                until=until,
            )
        except ModerationError as error:
            self.message_user(request, str(error), messages.ERROR)

    @admin.display(description="status")
    def status(self, obj: Report) -> str:
        return obj.get_outcome_display()

    @admin.display(description="reported")
    def what(self, obj: Report) -> str:
        if obj.message is not None:
            return format_html("message: “{}”", obj.message.text)
        return "player"

    @admin.display(description="player")
    def player(self, obj: Report) -> str:
        target = reports.report_target(obj)
        if target is None:
            return "-"
        url = reverse("admin:accounts_user_change", args=[target.pk])
        return format_html('<a href="{}">{}</a>', url, target.username)

    @admin.display(description="game")
    def game_link(self, obj: Report) -> str:
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
    def players(self, obj: Report) -> str:
        game_id = obj.game_id or (obj.message.game_id if obj.message is not None else None)
        if not game_id:
            return "-"
        seats = Seat.objects.filter(game_id=game_id).select_related("user")
        return ", ".join(seat.display_name for seat in seats)

    @admin.display(description="conversation")
    def context(self, obj: Report) -> str:
        return conversation(obj.message) if obj.message is not None else "-"
