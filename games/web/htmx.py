"""The request a view receives behind django-htmx's middleware, which adds `request.htmx` (for mypy:
Django's HttpRequest does not declare it)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
