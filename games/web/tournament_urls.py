"""The tournaments' URLs (/tournaments/...)."""

from django.urls import path

import ludopat.converters  # noqa: F401  (registers <id>, <token>)

from . import tournament_views as views

urlpatterns = [
    path("tournaments/", views.lobby, name="tournaments"),
    path("tournaments/new", views.open_one, name="tournament_open"),
    path("tournaments/prizes", views.prize_preview, name="tournament_prizes"),
    path("tournaments/<id:tournament_id>/", views.bracket, name="tournament"),
    path("tournaments/<id:tournament_id>/join", views.join, name="tournament_join"),
    path("tournaments/<id:tournament_id>/leave", views.leave, name="tournament_leave"),
    path("tournaments/<id:tournament_id>/forfeit", views.forfeit, name="tournament_forfeit"),
    path("tournaments/<id:tournament_id>/chat", views.chat, name="tournament_chat"),
    path("tournaments/<id:tournament_id>/report", views.report, name="tournament_report"),
]
