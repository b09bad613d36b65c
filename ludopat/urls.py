from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("u/<str:username>/", include("accounts.profile_urls")),
    path("", include("games.urls")),
    path("", include("games.pages_urls")),
]
