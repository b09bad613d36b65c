"""A player who reported someone is told what the moderators decided: a message on their next page
once the report is resolved, from the desk or the admin alike (both close reports in
accounts.moderation.reports.do_resolve_report).

Reports keep no "reporter told" mark; what a reporter was told last is kept in Redis instead (the
site's own client, ludopat.redis_clients: Django's cache makes a new connection for each request
context under ASGI, three round trips more on every page): the resolution time of the newest outcome
told (or, with nothing to tell yet, the start of the look-back). Lost (a flushed or failing Redis), the
outcomes of the last LOOK_BACK are told again, which is harmless; a Redis that fails tells nothing and
never fails the page. While the told mark is there, the
reports are read only after a resolution marked the reporter as having news (accounts.moderation.news):
most pages read nothing for this.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, cast

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from redis.exceptions import RedisError

from accounts.moderation.models import Report
from accounts.moderation.news import news_key
from ludopat.redis_clients import redis_client

log = logging.getLogger(__name__)

LOOK_BACK = timedelta(days=14)
KEPT = 60 * 60 * 24 * 30  # seconds: longer than LOOK_BACK, so a mark never outlives its use

Outcome = Report.Outcome
SENTENCES = {
    Outcome.DISMISSED: "A moderator looked at your report of {name} and found nothing against the rules.",
    Outcome.HIDDEN: "After your report, a moderator hid {name}'s message from the chat.",
    Outcome.MUTED: "After your report, a moderator muted {name}'s chat.",
    Outcome.BANNED: "After your report, a moderator banned {name}.",
}


def _key(user_id: int) -> str:
    return f"desk:reports-told:{user_id}"


def _name(report: Report) -> str:
    if report.reported is not None:
        return report.reported.username
    return report.message.name if report.message is not None else "the player"


def outcomes_to_tell(user_id: int, now: datetime | None = None) -> list[str]:
    """The sentences of the reporter's reports resolved since they were last told, oldest first;
    they count as told once this returns."""
    client = redis_client()
    mark, news = cast(list[Any], client.mget([_key(user_id), news_key(user_id)]))
    since = parse_datetime(mark.decode()) if isinstance(mark, bytes) else None
    if since is not None and news is None:
        return []  # told everything up to the mark, and nothing resolved since
    client.delete(news_key(user_id))  # before reading: news marked from now on is for the next page
    if since is None:
        since = (now or timezone.now()) - LOOK_BACK
        client.set(_key(user_id), since.isoformat(), ex=KEPT)  # read from here on, until news comes
    resolved = (
        Report.objects.filter(reporter_id=user_id, resolved_at__gt=since)
        .exclude(outcome="")
        .select_related("reported", "message")
        .order_by("resolved_at", "pk")
    )
    reports = list(resolved)
    if not reports:
        return []
    last = reports[-1].resolved_at  # set: the query is on it
    if last is not None:
        client.set(_key(user_id), last.isoformat(), ex=KEPT)
    return [SENTENCES[Outcome(r.outcome)].format(name=_name(r)) for r in reports]


class TellReporters:
    """After the messages middleware: a signed-in player's full-page requests carry the news (htmx
    swaps would drop it unseen, so they leave it for the next page)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            request.method == "GET"
            and "HX-Request" not in request.headers
            and user is not None
            and user.is_authenticated
        ):
            try:
                news = outcomes_to_tell(user.pk)
            except RedisError:
                log.warning("Redis is down: reporters are told their reports' outcomes later")
                news = []
            for sentence in news:
                messages.info(request, sentence)
        return self.get_response(request)
