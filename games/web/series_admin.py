"""The admin's page for scheduled series: an Admin defines a recurring tournament once (name, rule
set, size, buy-in, clock, hourly or daily at a time in a time zone, how long ahead it opens); beat
opens each instance (games.tournaments.series). Its instances are ordinary tournaments, listed and
cancelled on the tournaments' admin page. A series is never deleted once it has instances (they point
at it): unticking `active` stops it."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.contrib import admin
from django.utils import timezone

from ludopat.refusals import Refusal

from ..models import RULESETS
from ..tournaments import series
from ..tournaments.models import TournamentSeries
from ..tournaments.rules import parse_buy_in, parse_size, parse_timer


class SeriesForm(forms.ModelForm):
    ruleset = forms.ChoiceField(choices=RULESETS, initial="twodice", label="Rule set")

    class Meta:
        model = TournamentSeries
        fields = (
            "name",
            "ruleset",
            "size",
            "buy_in",
            "timer_seconds",
            "every",
            "at_time",
            "time_zone",
            "open_minutes",
            "active",
        )
        help_texts = {
            "time_zone": "An IANA name such as Europe/Paris: slots keep their wall-clock time "
            "across summer time.",
            "open_minutes": "Registration opens this many minutes before each start.",
        }

    def clean_time_zone(self) -> str:
        name = self.cleaned_data["time_zone"]
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError("Not a time zone name (try Europe/Paris or UTC).") from None
        return name

    def clean(self) -> dict:
        data = super().clean() or {}
        try:
            parse_size(data.get("size"))
            parse_buy_in(data.get("buy_in"))
            parse_timer(data.get("timer_seconds"))
        except Refusal as error:
            raise forms.ValidationError(str(error)) from None
        if (
            data.get("every") == TournamentSeries.Every.HOURLY
            and (data.get("open_minutes") or 0) > 60
        ):
            raise forms.ValidationError("An hourly series opens at most 60 minutes ahead.")
        return data


@admin.register(TournamentSeries)
class TournamentSeriesAdmin(admin.ModelAdmin):
    form = SeriesForm
    list_display = (
        "name",
        "size",
        "buy_in",
        "every",
        "at_time",
        "time_zone",
        "active",
        "next_start",
    )
    list_filter = ("active", "every")

    @admin.display(description="Next start")
    def next_start(self, obj: TournamentSeries) -> str:
        slot = series.next_slot(obj, timezone.now()) if obj.active else None
        return slot.strftime("%Y-%m-%d %H:%M UTC") if slot else "-"

    def has_delete_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        if obj is not None and obj.instances.exists():
            return False
        return super().has_delete_permission(request, obj)
