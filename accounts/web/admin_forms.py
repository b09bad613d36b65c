"""Forms the moderators fill in from the admin's actions (a reason is always asked for)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import forms
from django.utils import timezone

from ludopat.numbers import AsciiIntegerField

DURATIONS = [
    ("1", "1 hour"),
    ("24", "1 day"),
    ("168", "1 week"),
    ("720", "30 days"),
]


def ends_after(hours: str) -> datetime:
    return timezone.now() + timedelta(hours=int(hours))


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=200, help_text="The player is shown it.")


class MuteForm(ReasonForm):
    duration = forms.ChoiceField(choices=DURATIONS, initial="24", label="Mute for")


class BanForm(ReasonForm):
    duration = forms.ChoiceField(
        choices=[("", "Until lifted"), *DURATIONS], required=False, label="Ban for"
    )


class RenameForm(ReasonForm):
    username = forms.CharField(max_length=150, label="New username")


class CoinsForm(ReasonForm):
    amount = AsciiIntegerField(
        help_text="Coins to add; negative to take (a wallet never goes below zero).",
        min_value=-1_000_000,
        max_value=1_000_000,
    )
