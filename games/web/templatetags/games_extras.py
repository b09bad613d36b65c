"""Template helpers for the game pages: dice faces, places, and the home page's "Continue game" list."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.template import Context
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince

from games.live.dice_faces import face
from games.models import RULESET_NAMES

register = template.Library()


@register.simple_tag
def die_face(value: int | str) -> SafeString:
    return mark_safe(face(value))  # noqa: S308  made of numbers alone (games.live.dice_faces)


@register.filter
def ago(moment: datetime | None) -> str:
    """How long ago, in words: "just now" under a minute (never "0 minutes ago"), else "5 minutes ago"."""
    if moment is None:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"


@register.filter
def ordinal_place(n: int | str) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(int(n), f"{n}th")


@register.filter
def make_range(n: int | str) -> range:
    return range(int(n))


@register.filter
def by_place(seats: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted((s for s in seats if s.get("place")), key=lambda s: s["place"])


@register.filter
def first_place(seats: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    for s in seats:
        if s.get("place") == 1:
            return s
    return None


@register.inclusion_tag("games/_continue.html", takes_context=True)
def continue_games(context: Context) -> dict[str, Any]:
    from games.core.actors import actor_for
    from games.core.selectors import unfinished_games

    request = context.get("request")
    if request is None:
        return {"games": []}
    actor = actor_for(request.user, request.session)
    games = unfinished_games(actor)
    rows = []
    for game in games:
        seats = list(game.seats.all())  # prefetched with their accounts by unfinished_games
        rows.append(
            {
                "game": game,
                "names": ", ".join(s.display_name for s in seats),
                "colours": [s.colours[0] for s in seats],
            }
        )
    return {"games": rows, "csrf_token": context.get("csrf_token")}


BLURBS = {
    "classic": "2-4 players · safe stars, pairs block capture",
    "duel": "Red v Blue · captures send stacks home",
    "places": "Play every place · 10/6/3/0",
    "twodice": "Nigerian · two dice, kill to get out",
}


@register.simple_tag
def ruleset_blurb(name: str) -> str:
    return BLURBS.get(name, "")


@register.filter
def ruleset_name(ruleset: str) -> str:
    """A rule set's name as players read it ("twodice" -> "Two dice")."""
    return RULESET_NAMES.get(ruleset, ruleset)


@register.inclusion_tag("games/_setup_form.html", takes_context=True)
def setup_form(context: Context, mode: str) -> dict[str, Any]:
    from games.web.views import MODE_FORMS

    return {"form": MODE_FORMS[mode](), "mode": mode, "csrf_token": context.get("csrf_token")}
