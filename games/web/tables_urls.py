"""Play now's URLs (/play-now/...)."""

from django.urls import path

from . import tables_views as views

urlpatterns = [
    path("play-now/", views.play_now, name="play_now"),
    path("play-now/waiting", views.waiting, name="play_now_waiting"),
    path("play-now/waiting/status", views.status, name="play_now_status"),
    path("play-now/stop", views.stop, name="play_now_stop"),
]
