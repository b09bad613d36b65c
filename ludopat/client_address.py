"""The client's network address, read the same way by the rate limits and by django-axes.

Behind a reverse proxy every request comes from the proxy, so REMOTE_ADDR is one address for everyone.
LUDOPAT_PROXY_COUNT says how many proxies we run in front of the site (default: 1 with HTTPS=1,
else 0); each appends the address it saw to LUDOPAT_PROXY_HEADER (default X-Forwarded-For). The client
is the entry that many places from the right: entries further left were written by the client itself
and can say anything, so they are never trusted.
"""

from __future__ import annotations

from django.conf import settings


def _proxy_count() -> int:
    return int(getattr(settings, "LUDOPAT_PROXY_COUNT", 0))


def _meta_key() -> str:
    header = getattr(settings, "LUDOPAT_PROXY_HEADER", "X-Forwarded-For")
    return "HTTP_" + header.upper().replace("-", "_")


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


def from_request(request) -> str:
    """The client address of an HTTP request ("unknown" when the request has none)."""
    return pick(request.META.get("REMOTE_ADDR"), request.META.get(_meta_key()))


def for_axes(request) -> str | None:
    """django-axes' AXES_CLIENT_IP_CALLABLE: the same address, or None when there is none (axes keeps
    it in an IP address column, which on PostgreSQL refuses anything else; a log-in made in code,
    such as the test client's force_login, has no address)."""
    address = from_request(request)
    return None if address == "unknown" else address


def from_scope(scope) -> str:
    """The client address of a Channels (WebSocket) connection."""
    client = scope.get("client") or (None, None)
    wanted = _meta_key()[5:].lower().replace("_", "-").encode("latin-1")
    hops = [v.decode("latin-1") for n, v in scope.get("headers") or [] if n.lower() == wanted]
    return pick(client[0], ",".join(hops))
