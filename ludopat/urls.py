from django.contrib import admin
from django.urls import include, path

import ludopat.converters  # noqa: F401  (registers <gameid>, <username>, <name>, <id>, <token>)

from . import ops_views, views

urlpatterns = [
    path("", views.home, name="home"),
    # For Prometheus and the load balancer, not for people (docs/operations.md, "Metrics and health").
    path("metrics", ops_views.metrics_page, name="metrics"),
    path("health/live", ops_views.live, name="health-live"),
    path("health/ready", ops_views.ready, name="health-ready"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.web.urls")),
    path("desk/", include("accounts.web.desk_urls")),
    path("leaderboard/", include("leaderboard.web.urls")),
    path("u/<username:username>/", include("accounts.web.profile_urls")),
    path("friends/", include("accounts.web.friends_urls")),
    path("", include("games.web.urls")),
    path("", include("games.web.staking_urls")),
    path("", include("games.web.tournament_urls")),
    path("", include("games.web.tables_urls")),
    path("", include("games.web.pages_urls")),
    path("", include("games.web.live_now_urls")),
    path("", include("games.web.challenge_urls")),
]
