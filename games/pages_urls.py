"""Read-only pages about games: how to play each rule set, replays, fair-dice verification."""

from django.urls import path

from . import pages

urlpatterns = [
    path("rules/", pages.rules_index, name="rules_index"),
    path("rules/<str:ruleset>/", pages.rules, name="rules"),
    path("games/<str:game_id>/replay/", pages.replay, name="game_replay"),
    path("games/<str:game_id>/verify/", pages.verify, name="game_verify"),
]
