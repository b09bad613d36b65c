"""Which reporters have news: a mark per reporter, set after the commit that resolves their reports.

accounts.web.report_news tells a reporter the outcome on their next page. It reads their resolved reports
only when this mark says there may be something new, so the pages of everyone else (nearly every page)
cost no query for it. The mark is set once the resolution has committed, and taken (deleted) before the
reports are read, so a resolution committed meanwhile leaves a mark for the next page: none is missed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction
from redis.exceptions import RedisError

from ludopat.redis_clients import redis_client

log = logging.getLogger(__name__)

KEPT = (
    60 * 60 * 24 * 30
)  # seconds, as long as the reporter's told mark (accounts.web.report_news.KEPT)


def news_key(user_id: int) -> str:
    return f"desk:reports-news:{user_id}"


def reporters_have_news(reporter_ids: Iterable[int | None]) -> None:
    """In the transaction that resolves reports: their reporters are told once it commits."""
    keys = {news_key(user_id): "1" for user_id in set(reporter_ids) if user_id is not None}
    if keys:
        transaction.on_commit(lambda: _mark(keys))


def _mark(keys: dict[str, str]) -> None:
    # The site's own client (ludopat.redis_clients): Django's cache makes a new connection for each
    # request context under ASGI, and this runs on pages.
    try:
        pipe = redis_client().pipeline(transaction=False)
        for key, value in keys.items():
            pipe.set(key, value, ex=KEPT)
        pipe.execute()
    except RedisError:  # the reporter is told when their told mark lapses (report_news.KEPT)
        log.warning("Redis is down: %d reporters are told their reports' outcome later", len(keys))
