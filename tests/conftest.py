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
