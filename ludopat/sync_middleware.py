"""Keeps a request's middleware in one worker thread under ASGI.

Django builds the middleware chain from the inside out, and a middleware that can run either way takes
the mode of the one inside it. The innermost ones (sessions, CSRF, auth, htmx, axes) can, so without
this they all ran async: every one of their hooks was a hop into the sync thread and back, and the
sync-only WhiteNoise above them hopped back out, some dozen thread switches per request, each costing
CPU and latency on the live path. Being innermost and sync-only, this turns the whole chain sync: one
hop in, the view in the same thread, one hop out.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class OneThreadPerRequest:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)
