"""The leaderboard page: thin views over leaderboard.standings (every read is an indexed query)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from games.models import RULESETS
from ludopat.read_replica import reads_from_replica

from ..models import ALL_RULESETS, Board
from ..ratings.board import rating_board
from ..ratings.reads import most_rated_ruleset
from ..standings import (
    BOARD_CHOICES,
    RULESET_CHOICES,
    add_more_points,
    banned_ids,
    named_like,
    standing_of,
    standings,
    windows,
    with_ranks,
)
from .forms import LeaderboardForm

PER_PAGE = 25
RATING_DEFAULT = "classic"  # for a visitor with no rated round


def _rating_ruleset(request: HttpRequest, query: LeaderboardForm) -> str:
    """The rating board's rule set: the one asked for, else the one the viewer has the most rated
    rounds in, else the default."""
    asked = query.value("rating")
    if asked:
        return asked
    user = request.user
    return (most_rated_ruleset(user.pk) if user.is_authenticated else None) or RATING_DEFAULT


@require_safe
@reads_from_replica
def leaderboard(request: HttpRequest) -> HttpResponse:
    found = windows()
    query = LeaderboardForm(request.GET)
    window = found.get(query.value("period", ""), found["week"])
    ruleset = query.value("ruleset", ALL_RULESETS)
    board = query.value("board", Board.PEOPLE)
    search = query.value("q", "")
    filters = {"period": window.slug, "ruleset": ruleset, "board": board}

    banned = banned_ids()  # read once: the page's three rankings all leave them out
    jump = bool(query.value("me"))
    # A search counts the points ahead of its players in one read: the viewer's rank joins it.
    counted_here = bool(search) and not jump
    mine = standing_of(request.user, window, ruleset, board, banned, more_points=not counted_here)
    my_rank = mine.rank if mine else None  # type: ignore[attr-defined]  # annotated by with_ranks
    if jump and my_rank:
        page = (my_rank - 1) // PER_PAGE + 1  # "jump to my rank" works without JavaScript
        return redirect(f"{reverse('leaderboard')}?{urlencode({**filters, 'page': page})}#me")

    rows = standings(window, ruleset, board, banned)
    if search:  # the players found keep their real ranks
        rows = with_ranks(named_like(rows, search), banned, more_points=False)
    page = Paginator(rows, PER_PAGE).get_page(query.value("page", 1))
    if search:  # the page's rows, read once, and their ranks' biggest part counted for all at once
        page.object_list = list(page.object_list)
        add_more_points([*page.object_list, *([mine] if counted_here and mine else [])])
        my_rank = mine.rank if mine else None  # type: ignore[attr-defined]  # counted in full now
    first = (page.number - 1) * PER_PAGE
    entries = [
        {
            "rank": row.rank if search else first + n + 1,
            "row": row,
            "me": row.user_id == request.user.id,
        }
        for n, row in enumerate(page.object_list)
    ]
    context = {
        "window": window,
        "windows": list(found.values()),
        "ruleset": ruleset,
        "board": board,
        "search": search,
        "rulesets": RULESET_CHOICES,
        "boards": BOARD_CHOICES,
        "entries": entries,
        "page": page,
        "coins": any(e["row"].coins for e in entries),
        "mine": mine,
        "my_rank": my_rank,
        "query": urlencode({**filters, **({"q": search} if search else {})}),
        "filters": urlencode(filters),
    }
    if getattr(request, "htmx", False):  # the standings' refresh: the rating board isn't in it
        return render(request, "leaderboard/_standings.html", context)
    context["rating_board"] = rating_board(_rating_ruleset(request, query))
    context["rating_rulesets"] = RULESETS
    return render(request, "leaderboard/leaderboard.html", context)


@require_safe
@reads_from_replica
def rating_board_part(request: HttpRequest) -> HttpResponse:
    """The rating board alone, for another rule set's tab (htmx swaps it in place); its links keep
    the points board's filters, as the whole page's do."""
    query = LeaderboardForm(request.GET)
    filters = {
        "period": query.value("period", "week"),
        "ruleset": query.value("ruleset", ALL_RULESETS),
        "board": query.value("board", Board.PEOPLE),
    }
    context = {
        "rating_board": rating_board(_rating_ruleset(request, query)),
        "rating_rulesets": RULESETS,
        "filters": urlencode(filters),
    }
    return render(request, "leaderboard/_ratings.html", context)
