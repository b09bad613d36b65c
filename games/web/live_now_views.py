"""Live now: the public tables in play (the page, its polled list, the home page's box), and a finished
game's per-viewer panel to follow the others at the table.

The list is the same for every visitor: its render is kept for LIST_SECONDS in the shared cache, and
the page and the home box poll it (`hx-trigger="every ..."`, static/js/polls.js swaps it only when it
changed), so a thousand open pages cost one query and one render every few seconds, not a thousand. A
table's own board, opened from the list, is the game page as a spectator sees it: live over its
socket like any board.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe
from redis import RedisError

from ludopat.read_replica import reads_from_replica

from ..models import Game
from ..reads.friends import table_mates
from ..reads.live_now import live_tables, top_table

LIST_SECONDS = 5  # how old a list a visitor may see (the pages poll every POLL_SECONDS)
POLL_SECONDS = 10


def _kept(key: str, make: Callable[[], str]) -> str:
    """A render every visitor shares, made at most once per LIST_SECONDS (made each time if the
    cache is unreachable: the page must render anyway)."""
    try:
        html = cache.get(key)
    except RedisError:
        return make()
    if html is None:
        html = make()
        with contextlib.suppress(RedisError):
            cache.set(key, html, LIST_SECONDS)
    return html


def _tables_html() -> str:
    return render_to_string(
        "games/live_now/_tables.html", {"tables": live_tables(), "poll": POLL_SECONDS}
    )


def _top_html() -> str:
    return render_to_string(
        "games/live_now/_top.html", {"table": top_table(), "poll": POLL_SECONDS}
    )


@require_safe
@reads_from_replica
def live_now(request: HttpRequest) -> HttpResponse:
    """The page: the list, which then polls itself."""
    # A template's own render (escaped by it), kept in the cache as a string.
    tables = mark_safe(_kept("live_now:tables", _tables_html))  # noqa: S308
    context = {"tables_html": tables, "poll": POLL_SECONDS}
    return render(request, "games/live_now/page.html", context)


@require_safe
@reads_from_replica
def live_now_tables(request: HttpRequest) -> HttpResponse:
    """The list alone, for the page's poll."""
    return HttpResponse(_kept("live_now:tables", _tables_html))


@require_safe
@reads_from_replica
def live_now_top(request: HttpRequest) -> HttpResponse:
    """The home page's box: the top table, for its poll."""
    return HttpResponse(_kept("live_now:top", _top_html))


def top_box() -> str:
    """The home page's box as the home page first renders it."""
    return _kept("live_now:top", _top_html)


@require_safe
def players_to_follow(request: HttpRequest, game_id: str) -> HttpResponse:
    """A finished game's panel of the other accounts at the table, each with Follow (or Unfollow) for
    this viewer. The result panel, which every viewer of a viewpoint shares, loads it by itself."""
    game = get_object_or_404(Game, pk=game_id)
    user = request.user
    if not user.is_authenticated or game.status != Game.Status.FINISHED:
        return HttpResponse("")
    mates = table_mates(game, int(user.pk))
    return render(request, "games/live_now/_follow_players.html", {"game": game, "mates": mates})
