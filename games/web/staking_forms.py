"""The staked lobby's forms. Each carries an idempotency key (a hidden field made when the form is shown),
so a repeated submission returns the first one's game and moves no coin."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms

from accounts.ledger import rules

from ..models import RULESET_NAMES
from ..staking.rules import DEFAULT_TIMER, TWO_PLAYER_RULESETS, staked_timers

RULESET_CHOICES = [(name, RULESET_NAMES[name]) for name in TWO_PLAYER_RULESETS]


def new_key() -> str:
    return secrets.token_urlsafe(16)


KEY_DAMAGED = "This form is out of date or damaged: reload the page and try again."


class KeyedForm(forms.Form):
    """A form with its idempotency key alone (join, rematch); the others add their fields."""

    # Its error is the sentence a player sees (a NUL byte, which PostgreSQL refuses in text, or an
    # overlong key: only a damaged or forged page sends one).
    key = forms.CharField(
        max_length=64,
        required=False,
        widget=forms.HiddenInput,
        error_messages={"null_characters_not_allowed": KEY_DAMAGED, "max_length": KEY_DAMAGED},
    )
    id_prefix = "staked"  # two of these forms share the lobby page: their ids must differ

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"{self.id_prefix}-%s")
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("key", new_key())


class StakedRoomForm(KeyedForm):
    id_prefix = "room"
    # The stake is checked by games.staking.rules.parse_stake (ASCII digits, bounds) so that the
    # action refuses bad input the same way whoever calls it; here it is only text.
    stake = forms.CharField(
        max_length=24,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    ruleset = forms.ChoiceField(choices=RULESET_CHOICES, initial="twodice", label="Rule set")
    timer = forms.TypedChoiceField(coerce=int, initial=DEFAULT_TIMER, label="Seconds per action")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["timer"].choices = [(t, f"{t} s") for t in staked_timers()]  # type: ignore[attr-defined]  # a ChoiceField
        low, high = rules.stake_bounds()
        self.fields["stake"].help_text = f"{low:,} to {high:,} coins"
        # The first stake offered: the most a new account may stake, within the configured bounds.
        self.fields["stake"].initial = str(min(max(rules.new_player_limit()[0], low), high))


class QuickMatchForm(KeyedForm):
    id_prefix = "quick"
    tier = forms.TypedChoiceField(
        coerce=int,
        label="Stake",
        error_messages={
            "required": "Choose one of the quick match stakes.",
            "invalid_choice": "Choose one of the quick match stakes.",
        },
    )
    ruleset = forms.ChoiceField(choices=RULESET_CHOICES, initial="twodice", label="Rule set")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tier"].choices = [(t, f"{t:,} coins") for t in rules.stake_tiers()]  # type: ignore[attr-defined]  # a ChoiceField
        tiers = rules.stake_tiers()
        self.fields["tier"].initial = tiers[min(1, len(tiers) - 1)]  # the second tier, if any
