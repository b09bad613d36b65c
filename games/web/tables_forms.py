"""Play now's form: the kind of public table a player asks for (games.tables.kinds checks it)."""

from __future__ import annotations

from typing import Any

from django import forms

from ..core.errors import GameError
from ..models import RULESETS
from ..tables.kinds import TableKind, kind_of, seat_counts, timers

SEAT_CHOICES = [(2, "2 players"), (4, "4 players")]


def _seconds(n: int) -> str:
    return f"{n} s"


class PlayNowForm(forms.Form):
    ruleset = forms.ChoiceField(
        choices=RULESETS,
        initial="classic",
        error_messages={"invalid_choice": "Choose a rule set: classic, duel, places or two dice."},
    )
    players = forms.TypedChoiceField(
        choices=SEAT_CHOICES,
        coerce=int,
        initial=4,
        error_messages={"invalid_choice": "A public table has 2 or 4 seats."},
    )
    timer = forms.TypedChoiceField(
        choices=[],
        coerce=int,
        initial=15,
        error_messages={
            "invalid_choice": "A public table's timer is 10, 15 or 30 seconds per action."
        },
    )
    pairs = forms.BooleanField(required=False, label="UP Way pairs")
    hold = forms.BooleanField(required=False, label="Hold dice numbers")
    computers = forms.BooleanField(
        required=False,
        label="Fill empty seats with computers after 30 s",
        help_text="A table that starts with a computer counts for nobody's rating or points.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["timer"].choices = [(n, _seconds(n)) for n in timers()]  # type: ignore[attr-defined]  # a ChoiceField

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        ruleset = data["ruleset"]
        counts = seat_counts(ruleset)
        # Duel and two dice are for two, whatever the players field (hidden for them) says.
        seats = data["players"] if data["players"] in counts else counts[0]
        options = {}
        if ruleset == "places":
            options = {"pairs": data.get("pairs", False), "hold": data.get("hold", False)}
        try:
            data["kind"] = kind_of(ruleset, seats, data["timer"], options)
        except GameError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    def kind(self) -> TableKind:
        kind: TableKind = self.cleaned_data["kind"]
        return kind
