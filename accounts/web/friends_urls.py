from django.urls import path

from . import social_views

urlpatterns = [
    path("", social_views.friends, name="friends"),
]
