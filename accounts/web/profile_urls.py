from django.urls import path

from . import social_views, views

urlpatterns = [
    path("", views.profile, name="profile"),
    path("report/", views.report_player, name="report_player"),
    path("follow/", social_views.follow, name="follow"),
    path("unfollow/", social_views.unfollow, name="unfollow"),
    path("block/", social_views.block, name="block"),
    path("unblock/", social_views.unblock, name="unblock"),
]
