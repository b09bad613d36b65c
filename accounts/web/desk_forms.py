"""The one form of a report's page on the moderator's desk: a reason, how long a mute or a ban lasts,
and which button was pressed (the outcome). Durations default to a day: an open-ended ban is chosen,
never the default."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms

from accounts.moderation.models import Report

from .admin_forms import DURATIONS, ends_after

Outcome = Report.Outcome
OUTCOMES = [Outcome.HIDDEN, Outcome.MUTED, Outcome.BANNED, Outcome.DISMISSED]
GIVE_A_REASON = "Give a reason: the player is shown it."
PLAIN_TEXT = "Write the reason as plain text."


class ResolveForm(forms.Form):
    reason = forms.CharField(
        max_length=200,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="A muted or banned player is shown it; the person who reported is not.",
        error_messages={
            "max_length": "Keep the reason under 200 characters.",
            "null_characters_not_allowed": PLAIN_TEXT,
        },
    )
    mute_for = forms.ChoiceField(
        choices=DURATIONS,
        initial="24",
        label="Mute for",
        error_messages={"invalid_choice": "Choose how long the mute lasts from the list."},
    )
    ban_for = forms.ChoiceField(
        choices=[*DURATIONS, ("", "Until lifted by a moderator")],
        initial="24",
        required=False,
        label="Ban for",
        error_messages={"invalid_choice": "Choose how long the ban lasts from the list."},
    )
    outcome = forms.ChoiceField(
        choices=[(o.value, o.label) for o in OUTCOMES],
        error_messages={
            "required": "Choose what to do with the report: one of the buttons.",
            "invalid_choice": "Choose what to do with the report: one of the buttons.",
        },
    )

    def __init__(self, *args: Any, report: Report, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.report = report

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        outcome = data.get("outcome")
        if outcome == Outcome.HIDDEN and not self.report.message_id:
            raise forms.ValidationError("A player report has no message to hide.")
        if outcome in (Outcome.MUTED, Outcome.BANNED) and not (data.get("reason") or "").strip():
            self.add_error("reason", GIVE_A_REASON)
        return data

    def until(self) -> datetime | None:
        """When the chosen mute or ban ends (None: a ban until lifted, or no sanction)."""
        outcome = self.cleaned_data["outcome"]
        if outcome == Outcome.MUTED:
            return ends_after(self.cleaned_data["mute_for"])
        if outcome == Outcome.BANNED and self.cleaned_data.get("ban_for"):
            return ends_after(self.cleaned_data["ban_for"])
        return None
