"""Live now's URLs: the page, its polled list, the home page's box; a finished game's follow panel."""

from django.urls import path

import ludopat.converters  # noqa: F401  (registers <gameid>)

from . import live_now_views as views

urlpatterns = [
    path("live/", views.live_now, name="live_now"),
    path("live/tables", views.live_now_tables, name="live_now_tables"),
    path("live/top", views.live_now_top, name="live_now_top"),
    path(
        "games/<gameid:game_id>/players-to-follow",
        views.players_to_follow,
        name="game_players_to_follow",
    ),
]
