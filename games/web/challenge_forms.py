"""The challenge form (a player's profile, "Challenge"), and the invitation to a waiting 4-seat table."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.ledger import rules

from .forms import SetupForm

KINDS = [
    ("rated", "Rated"),
    ("unrated", "Unrated: no rating, no points"),
    ("staked", "For coins: a 1 v 1 at a stake"),
]


class ChallengeForm(SetupForm):
    players = forms.TypedChoiceField(
        choices=[(2, "2 players"), (4, "4 players")], coerce=int, initial=2, label="Players"
    )
    timer = forms.TypedChoiceField(
        choices=[(10, "10 s"), (15, "15 s"), (30, "30 s")],
        coerce=int,
        initial=15,
        label="Seconds per action",
    )
    kind = forms.ChoiceField(
        choices=KINDS, initial="rated", label="Play for", widget=forms.RadioSelect
    )
    # Checked by games.staking.rules.parse_stake, as every staked door does: here only text.
    stake = forms.CharField(
        max_length=24,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "challenge-%s")
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].label = "Rule set"
        low, high = rules.stake_bounds()
        self.fields["stake"].help_text = f"For coins only: {low:,} to {high:,} coins each."

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == "staked" and not (data.get("stake") or "").strip():
            self.add_error("stake", "Say how many coins each of you stakes.")
        return data


class InviteForm(forms.Form):
    room = forms.CharField(max_length=24, widget=forms.HiddenInput)
