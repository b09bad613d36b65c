"""The admin site: Django's, except that a staff session needs a second factor, as at the desk.

Everyone logs in through the site's own log-in (with its code step for an account that has an
authenticator): the admin's password-only form would let a stolen password through. A staff session
that no device verified is told how to get a second factor instead of being shown a form.
Listed in INSTALLED_APPS in place of django.contrib.admin (its `default_site` is `admin.site`), so
this module is imported before the models are ready: what needs them is imported where it is used.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from ludopat.next_url import next_in


class StaffAdminSite(AdminSite):
    site_header = "Ludopat moderation"
    site_title = "Ludopat moderation"

    def has_permission(self, request: HttpRequest) -> bool:
        from ..users.two_factor import is_verified

        return super().has_permission(request) and is_verified(request.user)

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        from django.contrib.auth.views import redirect_to_login

        from .two_factor_views import second_factor_needed

        user = request.user
        after = next_in(request.GET, request) or reverse("admin:index")
        if self.has_permission(request):
            return redirect(after)
        if not user.is_authenticated:
            return redirect_to_login(after)
        if user.is_active and user.is_staff:
            return second_factor_needed(request, after)
        message = "The admin is for the site's staff."
        return render(request, "403.html", {"message": message}, status=403)


class AdminConfig(DjangoAdminConfig):
    default_site = "accounts.web.admin_site.StaffAdminSite"
