"""The operators' endpoints: Prometheus' `/metrics` and the load balancer's `/health/live` and
`/health/ready` (docs/operations.md, "Metrics and health")."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from accounts.ledger.watch import last_check

from . import client_address, health, metrics


def _bearer(request: HttpRequest) -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def may_scrape(request: HttpRequest) -> bool:
    """The configured bearer token (Prometheus' `authorization` setting), from anywhere; or an address
    in LUDOPAT_METRICS_ALLOW with no forwarding header at all. A request that came through a proxy
    carries one: behind a proxy on the same machine the site may not have been told of
    (LUDOPAT_PROXY_COUNT), every client would read as 127.0.0.1, so no header-borne request is let in
    by its address."""
    expected = settings.LUDOPAT_METRICS_TOKEN
    given = _bearer(request)
    if expected and given and hmac.compare_digest(given.encode(), expected.encode()):
        return True
    if client_address.forwarding_headers(request):
        return False
    return request.META.get("REMOTE_ADDR") in settings.LUDOPAT_METRICS_ALLOW


@csrf_exempt  # it changes nothing; the CSRF check's 403 would tell the page apart from a missing one
@never_cache
def metrics_page(request: HttpRequest) -> HttpResponse:
    """Prometheus' scrape; anyone `may_scrape` refuses gets the site's ordinary 404, as if there were
    nothing here (whatever the method: a 405 would tell it apart from a missing page)."""
    if not may_scrape(request):
        raise Http404
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    # The ledger's state as the last check (beat's, hourly) left it: one row read. Running the check
    # itself here would scan every transaction on every scrape.
    checked = last_check()
    if checked is not None:
        metrics.ledger_checked(sound=not checked.problems, when=checked.checked)
    body, content_type = metrics.exposition()
    return HttpResponse(body, content_type=content_type)


@require_safe  # GET or HEAD, whichever the load balancer sends
@never_cache
def live(request: HttpRequest) -> JsonResponse:
    """The process answers; nothing else is asked."""
    return JsonResponse({"status": "ok"})


@require_safe
@never_cache
def ready(request: HttpRequest) -> JsonResponse:
    """503 only when PostgreSQL can't be reached; Redis or Celery down is 'degraded', still 200."""
    status, body = health.readiness()
    return JsonResponse(body, status=status)
