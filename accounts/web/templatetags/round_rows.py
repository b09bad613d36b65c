"""`{% recent_round_rows rounds %}`: the player page's table of recent rounds, its rows built in Python.

A busy player's page shows 20 rounds with their opponents; the template loop that drew them resolved
a dozen variables, two dates and a URL per row, most of the page's rendering. The markup is the loop's
own, to the character (tests/accounts/test_round_rows.py holds the two equal).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import get_script_prefix
from django.utils import dateformat
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime

from .coins import coins_signed
from .profiles import address_around, profile_url

register = template.Library()


def _opponents(others: Iterable[Any]) -> str:
    return ", ".join(
        f'<a href="{escape(profile_url(o.user.username))}">{escape(o.user.username)}</a>'
        if o.user
        else escape(o.name)
        for o in others
    )


def _points(r: Any) -> str:
    if r.void:
        cell = '<span class="muted">void</span>'
    elif r.not_counted:
        cell = f'<span class="muted">not counted: {escape(r.not_counted)}</span>'
    else:
        cell = str(r.points)
    if r.rating_change is not None:
        change = f"+{r.rating_change}" if r.rating_change > 0 else str(r.rating_change)
        cell += f'<br><span class="rating-change">rating {change}</span>'
    if r.coins:
        cell += f'<br><span class="coins-won">{coins_signed(r.coins)} coins</span>'
    return cell


def _row(r: Any, replay: tuple[str, str]) -> str:
    players = f" · {r.players} players" if r.players > 2 else ""
    if r.in_tournament:
        players += '<br><span class="tournament-mark">tournament match</span>'
    when = localtime(r.finished_at)
    return (
        "<tr>"
        f"<td>{escape(r.ruleset_name)}{players}</td>"
        f"<td>{_opponents(r.others)}</td>"
        f"<td>{r.place} of {r.players}</td>"
        f"<td>{_points(r)}</td>"
        f'<td><time datetime="{dateformat.format(when, "c")}">{dateformat.format(when, "j M Y")}'
        "</time></td>"
        f'<td><a href="{replay[0]}{r.round.public_id}{replay[1]}">Replay</a></td>'
        "</tr>"
    )


@register.simple_tag
def recent_round_rows(rounds: Iterable[Any]) -> SafeString:
    """The rows of leaderboard.player.recent_rounds' page (results with `.others`, `.ruleset_name`,
    `.not_counted` and `.in_tournament`)."""
    replay = address_around("public_replay", get_script_prefix())  # an id needs no quoting
    return mark_safe("".join(_row(r, replay) for r in rounds))  # noqa: S308  each value escaped
