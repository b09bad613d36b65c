from django.urls import path

from . import views

urlpatterns = [
    path("", views.profile, name="profile"),
    path("report/", views.report_player, name="report_player"),
]
