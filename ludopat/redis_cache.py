"""Django's Redis cache with one client, and so one pool of connections, per process.

Django makes a cache object for each thread or asynchronous context (`django.core.cache.caches`),
and its Redis cache makes a client and a connection pool of its own for each. Under ASGI each
request's synchronous code runs in a thread of its own, so every request that used the cache opened a
new connection to Redis and paid its handshake: the rate limits, the reporters' news, the rating
board and the Live now list, on page after page. Here the client is shared by every cache object of
the process with the same servers and options (redis-py's pools are thread-safe, and a forked child
makes its own connections: the pool checks the process id).
"""

from __future__ import annotations

import threading
from functools import cached_property
from typing import Any

from django.core.cache.backends.redis import RedisCache

_clients: dict[tuple[str, ...], Any] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> Any:
        # What RedisCache.__init__ set (its stubs don't declare them).
        state: dict[str, Any] = vars(self)
        servers, options = state["_servers"], state["_options"]
        key = (*servers, repr(sorted(options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = state["_class"](servers, **options)
            return client
