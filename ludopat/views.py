from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.users.online import online_count
from games.live.board_view import board_context
from games.tournaments.reads import home_card
from leaderboard.standings import week_top

# The hero board shows a game in progress, so a first-time visitor sees what Ludo looks like.
HERO_POSITION = {
    "red": [-1, 5, 14, 52],
    "green": [-1, -1, 8, 30],
    "yellow": [2, -1, -1, 21],
    "blue": [-1, 40, -1, -1],
}


@require_safe  # a page to read: a POST to it is refused (405), not answered with the page
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "online": online_count(),
        "week_top": week_top(),
        "tournaments": home_card(),
        **board_context(HERO_POSITION),
    }
    return render(request, "home.html", context)
