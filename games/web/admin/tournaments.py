"""Tournaments in the admin: read-only as every game record, with a filter for stalled brackets; an
Admin schedules one (the add form calls the tournaments' `open_tournament`) and cancels one through
moderation's audited service."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from accounts.moderation import tournaments
from accounts.web.admin_actions import permission_to, reason_action
from accounts.web.admin_forms import ReasonForm
from ludopat.refusals import Refusal

from ...tournaments import reads as tournament_reads
from ...tournaments.models import Tournament
from ...tournaments.registration import open_tournament
from ...tournaments.rules import parse_buy_in, parse_size, parse_timer, stalled_minutes
from .read_only import ReadOnlyAdmin


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

    has_cancel_permission = permission_to("games.cancel_tournament")
    cancel = reason_action(
        "cancel",
        "Cancel (every buy-in returned)",
        permission="cancel",
        title="Cancel the tournament",
        form_class=ReasonForm,
        apply=lambda moderator, tournament, data: tournaments.do_cancel_tournament(
            moderator, tournament.pk, reason=data["reason"]
        ),
        done="cancelled, every buy-in returned.",
    )

    @admin.display(boolean=True, description="stalled")
    def stalled(self, obj: Tournament) -> bool:
        return tournament_reads.stalled().filter(pk=obj.pk).exists()

    @admin.display(description="pages")
    def links(self, obj: Tournament) -> str:
        return format_html('<a href="{}">bracket</a>', reverse("tournament", args=[obj.pk]))
