"""The leaderboard's query string, read through a form: each field optional, and a value that makes no
sense (an old or hand-edited link) falls back to its default instead of an error."""

from __future__ import annotations

from typing import Any

from django import forms

from games.models import RULESETS
from ludopat.numbers import AsciiIntegerField

from ..standings import BOARD_CHOICES, RULESET_CHOICES

SEARCH_MAX = 150  # a username is at most 150 characters


class SearchField(forms.CharField):
    """Search text as far as it can name a player: NUL bytes dropped, cut at SEARCH_MAX."""

    def to_python(self, value: Any) -> str:
        return (super().to_python(value) or "").replace("\x00", "")[:SEARCH_MAX]


class LeaderboardForm(forms.Form):
    period = forms.CharField(required=False, max_length=40)
    ruleset = forms.ChoiceField(choices=RULESET_CHOICES, required=False)
    board = forms.ChoiceField(choices=BOARD_CHOICES, required=False)
    q = SearchField(required=False)
    me = forms.CharField(required=False, max_length=10)
    page = AsciiIntegerField(min_value=1, required=False)
    rating = forms.ChoiceField(choices=RULESETS, required=False)  # the rating board's rule set

    def value(self, name: str, default: Any = None) -> Any:
        """The field's checked value, or `default` if it is missing or makes no sense."""
        self.is_valid()
        return self.cleaned_data.get(name) or default
