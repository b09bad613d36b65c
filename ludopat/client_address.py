"""The client's network address, read the same way by the rate limits and by django-axes.

Behind a reverse proxy every request comes from the proxy, so REMOTE_ADDR is one address for everyone.
LUDOPAT_PROXY_COUNT says how many proxies we run in front of the site (default: 1 with HTTPS=1,
else 0); each appends the address it saw to LUDOPAT_PROXY_HEADER (default X-Forwarded-For). The client
is the entry that many places from the right: entries further left were written by the client itself
and can say anything, so they are never trusted.

A site behind a proxy it was not told of (HTTPS=0 leaves the count at 0) reads every client as the
proxy: one address for the rate limits and the log-in lock-out. It can't know better, but it can say
so: `WarnUntrustedForwarding` logs a warning at the first request that carries forwarding headers the
site does not read, once per process.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

# Headers a proxy adds with the client's address: nginx's usual two, RFC 7239's, and the configured one.
FORWARDING_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")


def _proxy_count() -> int:
    return int(getattr(settings, "LUDOPAT_PROXY_COUNT", 0))


def _header() -> str:
    return str(getattr(settings, "LUDOPAT_PROXY_HEADER", "X-Forwarded-For"))


def _meta_key(header: str | None = None) -> str:
    return "HTTP_" + (header or _header()).upper().replace("-", "_")


def forwarding_headers(request: HttpRequest) -> list[str]:
    """The forwarding headers the request carries (any proxy's, trusted or not)."""
    names = dict.fromkeys((*FORWARDING_HEADERS, _header()))
    return [name for name in names if request.META.get(_meta_key(name))]


def read_from_header(request: HttpRequest) -> bool:
    """Whether the client address of `request` is read from the proxies' header (else it is the
    connection's own address)."""
    return _proxy_count() > 0 and bool(request.META.get(_meta_key()))


def pick(remote: str | None, forwarded: str | None) -> str:
    """The client's address given the peer's address and the proxies' header (settings decide).

    With one proxy, "spoofed, 203.0.113.9" from the proxy means the client is 203.0.113.9.
    """
    count = _proxy_count()
    if count > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= count:
            return hops[-count][:64]
    return (remote or "unknown")[:64]


def from_request(request: HttpRequest) -> str:
    """The client address of an HTTP request ("unknown" when the request has none)."""
    return pick(request.META.get("REMOTE_ADDR"), request.META.get(_meta_key()))


def for_axes(request: HttpRequest) -> str | None:
    """django-axes' AXES_CLIENT_IP_CALLABLE: the same address, or None when there is none (axes keeps
    it in an IP address column, which on PostgreSQL refuses anything else; a log-in made in code,
    such as the test client's force_login, has no address)."""
    address = from_request(request)
    return None if address == "unknown" else address


def from_scope(scope: dict[str, Any]) -> str:
    """The client address of a Channels (WebSocket) connection."""
    client = scope.get("client") or (None, None)
    wanted = _meta_key()[5:].lower().replace("_", "-").encode("latin-1")
    hops = [v.decode("latin-1") for n, v in scope.get("headers") or [] if n.lower() == wanted]
    return pick(client[0], ",".join(hops))


# Set once the warning is logged; the tests put a fresh one in.
untrusted_seen = threading.Event()


class WarnUntrustedForwarding:
    """Logs, once per process, the first request whose forwarding headers the site does not read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not untrusted_seen.is_set() and not read_from_header(request):
            headers = forwarding_headers(request)
            if headers:
                untrusted_seen.set()
                log.warning(
                    "A request came with %s from %s, but LUDOPAT_PROXY_COUNT is %s (with "
                    "LUDOPAT_PROXY_HEADER %s): the site reads every client behind that proxy as "
                    "its address, one address for the rate limits and the log-in lock-out. Set "
                    "LUDOPAT_PROXY_COUNT to the number of proxies in front of the site "
                    '(docs/operations.md, "The reverse proxy"). Said once per process.',
                    ", ".join(headers),
                    request.META.get("REMOTE_ADDR", "unknown"),
                    _proxy_count(),
                    _header(),
                )
        return self.get_response(request)
