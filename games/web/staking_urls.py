"""The staked lobby's URLs (/staked/...)."""

from django.urls import path

import ludopat.converters  # noqa: F401  (registers <gameid>)

from . import quick_waiting_views
from . import staking_views as views

urlpatterns = [
    path("staked/", views.lobby, name="staked_lobby"),
    path("staked/rooms", views.rooms, name="staked_rooms"),
    path("staked/new", views.create, name="staked_create"),
    path("staked/quick", views.quick, name="staked_quick"),
    path("staked/quick/<gameid:game_id>", quick_waiting_views.waiting, name="staked_quick_waiting"),
    path(
        "staked/quick/<gameid:game_id>/status",
        quick_waiting_views.status,
        name="staked_quick_status",
    ),
    path("staked/<gameid:game_id>/join", views.join, name="staked_join"),
    path("staked/<gameid:game_id>/cancel", views.cancel, name="staked_cancel"),
    path("staked/<gameid:game_id>/rematch", views.rematch, name="staked_rematch"),
]
