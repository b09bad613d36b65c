"""Every refusal says why: a 4xx answer with an empty body (Django's 405 from require_POST/require_safe,
a bare HttpResponseBadRequest) gets a sentence a person can read, as plain text; a refused CSRF check
(most often a page left open while the session changed in another tab) says so and offers a reload."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

SENTENCES = {
    400: "Bad request: the server could not understand what was sent.",
    403: "You may not do that.",
    404: "There is nothing at this address.",
    413: "That request is too large.",
}
STALE_SESSION = (
    "Your session changed since this page was loaded (you logged in or out in another tab): "
    "reload the page to go on."
)
# On a refusal carrying this header, the page's script shows the sentence with a Reload button.
RELOAD_HEADER = "X-Ludopat-Reload"


def sentence(status: int, method: str, allowed: str) -> str:
    if status == 405:
        return f"This address does not accept {method} requests; use {allowed or 'another method'}."
    return SENTENCES.get(status, f"That request was refused (HTTP {status}).")


class ReadableRefusalsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if 400 <= response.status_code < 500 and not response.streaming and not response.content:
            response.content = sentence(
                response.status_code, request.method or "", response.headers.get("Allow", "")
            ).encode()
            response["Content-Type"] = "text/plain; charset=utf-8"
            # Middleware below this one (CommonMiddleware) measured the empty body: a stale
            # "Content-Length: 0" before a sentence is not valid HTTP, and clients fail to parse it.
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: the site's own refusal instead of Django's bare page. The usual
    cause is a page whose token went stale when the session changed in another tab."""
    if request.headers.get("HX-Request"):
        response = HttpResponse(STALE_SESSION, status=403, content_type="text/plain; charset=utf-8")
        response[RELOAD_HEADER] = "1"
        return response
    context = {"message": STALE_SESSION, "reload_url": _page_left(request)}
    return render(request, "403.html", context, status=403)


def _page_left(request: HttpRequest) -> str:
    """The page the refused form was on (ours only), so a link reloads it; else the home page."""
    referer = request.headers.get("Referer", "")
    if not referer or not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return "/"
    path = referer.split(request.get_host(), 1)[-1] if "://" in referer else referer
    return path if path.startswith("/") and not path.startswith("//") else "/"
