"""Every refusal says why: a 4xx answer with an empty body (Django's 405 from require_POST/require_GET,
a bare HttpResponseBadRequest) gets a sentence a person can read, as plain text."""

from __future__ import annotations

SENTENCES = {
    400: "Bad request: the server could not understand what was sent.",
    403: "You may not do that.",
    404: "There is nothing at this address.",
    413: "That request is too large.",
}


def sentence(status: int, method: str, allowed: str) -> str:
    if status == 405:
        return f"This address does not accept {method} requests; use {allowed or 'another method'}."
    return SENTENCES.get(status, f"That request was refused (HTTP {status}).")


class ReadableRefusalsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if 400 <= response.status_code < 500 and not response.streaming and not response.content:
            response.content = sentence(
                response.status_code, request.method, response.headers.get("Allow", "")
            ).encode()
            response["Content-Type"] = "text/plain; charset=utf-8"
        return response
