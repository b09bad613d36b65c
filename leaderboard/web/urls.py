from django.urls import path

from . import views

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("ratings/", views.rating_board_part, name="rating_board"),
]
