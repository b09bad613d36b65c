"""`{% provisional_note %}`: what the "?" beside a rating means, in the words of the rule
(leaderboard/ratings/scale.py), the one sentence the player page, the rating board and the staked lobby
show; `|any_provisional`: whether a list of ratings has one to explain."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ...ratings.scale import SETTLED_SPREAD

register = template.Library()

PROVISIONAL_WORDS = (
    "A “?” marks a provisional rating: its uncertainty (how far the number may still be from the "
    "player's strength) is above ±{settled} points. Rated rounds narrow it; at ±{settled} or less "
    "the rating is settled and ranked on the rating board."
)


def provisional_words() -> str:
    return PROVISIONAL_WORDS.format(settled=SETTLED_SPREAD)


@register.simple_tag
def provisional_note() -> SafeString:
    return format_html(
        '<p class="muted small provisional-note" data-testid="provisional-note">{}</p>',
        provisional_words(),
    )


def _get(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


@register.filter
def any_provisional(items: Iterable[Any], attribute: str = "") -> bool:
    """Whether any of `items` (ratings as dicts or objects, or, with `attribute`, what holds them:
    `rooms|any_provisional:"host_rating"`) is provisional."""
    return any(_get(_get(i, attribute) if attribute else i, "provisional") for i in items)
