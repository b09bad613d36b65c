"""The account of a request a view has let in (login_required, the desk's and the admin's staff
checks), typed as the site's User model rather than Django's `User | AnonymousUser`."""

from __future__ import annotations

from typing import cast

from django.http import HttpRequest

from ..models import User


def account_of(request: HttpRequest) -> User:
    """`request.user` once a check let the request in: an account, never the anonymous visitor."""
    return cast(User, request.user)
