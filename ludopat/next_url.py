"""Where to go after a form: the `next` field a log-in, a sign-up or a no-JavaScript action sends.

Only an address on this site is followed ("/\\evil.example" passes a startswith("/") check, and
browsers read it as "//evil.example"); anything else, or a damaged value, is no `next` at all.
"""

from __future__ import annotations

from django.http import HttpRequest, QueryDict
from django.utils.http import url_has_allowed_host_and_scheme

MAX_CHARS = 2000


def next_in(query: QueryDict, request: HttpRequest) -> str | None:
    """The `next` address in a query dict (`request.POST` or `request.GET`), if it is on this site."""
    target = query.get("next")
    if not isinstance(target, str) or not target or len(target) > MAX_CHARS or "\x00" in target:
        return None
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None
