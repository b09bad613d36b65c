from __future__ import annotations

import pytest
import redis
from django.conf import settings


@pytest.fixture
def redis_client():
    """The Redis the site uses, emptied before the test so counts start from nothing."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def redis_down(settings):
    """The site's Redis unreachable for the cache, presence and the channel layer (pointed at a port
    nothing listens on). Celery's broker is left alone: the fault test stops a Redis of its own."""
    from accounts import presence
    from ludopat.embedded_redis import free_port
    from ludopat.settings import redis_settings

    url = f"redis://127.0.0.1:{free_port()}/0"
    for name, value in redis_settings(url).items():
        if name != "CELERY_BROKER_URL":
            setattr(settings, name, value)
    # The online count's client is made once per process from REDIS_URL: one made now would stay
    # pointed at the dead port for every later test in this process (xdist runs them in any order).
    presence._sync_client.cache_clear()
    yield url
    presence._sync_client.cache_clear()
