"""The leaderboard page: thin views over leaderboard.standings (every read is an indexed query)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from ludopat.numbers import page_number

from .models import ALL_RULESETS, Board
from .standings import (
    BOARD_CHOICES,
    RULESET_CHOICES,
    standing_of,
    standings,
    windows,
    with_ranks,
)

PER_PAGE = 25
SEARCH_MAX = 150  # a username is at most 150 characters


def leaderboard(request: HttpRequest) -> HttpResponse:
    found = windows()
    window = found.get(request.GET.get("period", ""), found["week"])
    ruleset = _one_of(request.GET.get("ruleset"), RULESET_CHOICES, ALL_RULESETS)
    board = _one_of(request.GET.get("board"), BOARD_CHOICES, Board.PEOPLE)
    search = request.GET.get("q", "").strip()[:SEARCH_MAX].replace("\x00", "")
    filters = {"period": window.slug, "ruleset": ruleset, "board": board}

    mine = standing_of(request.user, window, ruleset, board)
    my_rank = mine.rank if mine else None
    if request.GET.get("me") and my_rank:
        page = (my_rank - 1) // PER_PAGE + 1  # "jump to my rank" works without JavaScript
        return redirect(f"{reverse('leaderboard')}?{urlencode({**filters, 'page': page})}#me")

    rows = standings(window, ruleset, board)
    if search:  # the players found keep their real ranks
        rows = with_ranks(rows.filter(user__username__icontains=search))
    page = Paginator(rows, PER_PAGE).get_page(page_number(request.GET.get("page")))
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
    if getattr(request, "htmx", False):
        return render(request, "leaderboard/_standings.html", context)
    return render(request, "leaderboard/leaderboard.html", context)


def _one_of(value: str | None, choices, default: str) -> str:
    return value if value in {name for name, _ in choices} else default
