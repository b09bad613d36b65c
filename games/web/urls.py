"""Game URLs: setup, the game page and its actions (htmx POSTs), records."""

from django.urls import path

import ludopat.converters  # noqa: F401  (registers <gameid>, <username>, <name>)

from . import views

urlpatterns = [
    path("games/new/<name:mode>/", views.new_game, name="new_game"),
    path("games/<gameid:game_id>/", views.game_page, name="game"),
    path("games/<gameid:game_id>/live", views.live, name="game_live"),
    path("games/<gameid:game_id>/record.json", views.record_json, name="game_record"),
    path("games/<gameid:game_id>/roll", views.action, {"name": "roll"}, name="game_roll"),
    path("games/<gameid:game_id>/move", views.action, {"name": "move"}, name="game_move"),
    path("games/<gameid:game_id>/resign", views.action, {"name": "resign"}, name="game_resign"),
    path("games/<gameid:game_id>/leave", views.action, {"name": "leave"}, name="game_leave"),
    path("games/<gameid:game_id>/abandon", views.action, {"name": "abandon"}, name="game_abandon"),
    path("games/<gameid:game_id>/join", views.action, {"name": "join"}, name="game_join"),
    path("games/<gameid:game_id>/start", views.action, {"name": "start"}, name="game_start"),
    path("games/<gameid:game_id>/seat", views.action, {"name": "seat"}, name="game_seat"),
    path("games/<gameid:game_id>/seed", views.action, {"name": "seed"}, name="game_seed"),
    path(
        "games/<gameid:game_id>/new-round",
        views.action,
        {"name": "new_round"},
        name="game_new_round",
    ),
    path(
        "games/<gameid:game_id>/takeover", views.action, {"name": "takeover"}, name="game_takeover"
    ),
    path("games/<gameid:game_id>/pause", views.action, {"name": "pause"}, name="game_pause"),
    path("games/<gameid:game_id>/resume", views.action, {"name": "resume"}, name="game_resume"),
    path("games/<gameid:game_id>/back", views.action, {"name": "back"}, name="game_back"),
    path("games/<gameid:game_id>/chat", views.action, {"name": "chat"}, name="game_chat"),
    path("games/<gameid:game_id>/report", views.action, {"name": "report"}, name="game_report"),
]
