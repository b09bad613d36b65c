"""A token bucket per WebSocket connection: every frame a client sends costs one token, whatever it
is (an action, a resync, a heartbeat, garbage), so no kind of frame is a free way to make the server
work. A page sends a few frames a minute and a burst of clicks now and then; a script sending faster
than the bucket refills empties it, and the connection is closed with ABUSE_CLOSE_CODE, which pages do
not reconnect after (static/js/game.js says so to the player).

The bucket lives in the consumer instance (one per connection): nothing to share across processes, no
Redis round trip per frame, and connections without a cookie each get their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings

# 4000-4999 are the application's own codes; htmx's ws extension reconnects only after 1006/1011-1013.
ABUSE_CLOSE_CODE = 4429
DEFAULT_RATE = (30, 3.0)  # a burst of 30 frames, then 3 a second


class FrameBucket:
    """`capacity` tokens, refilled at `per_second`; `take()` spends one or says there is none left.

    >>> clock = iter([0.0, 0.0, 0.0, 0.0, 1.0]).__next__
    >>> bucket = FrameBucket(2, 1.0, clock)
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    >>> bucket.take()  # a second later one token is back
    True
    """

    def __init__(
        self, capacity: int, per_second: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = float(capacity)
        self.per_second = float(per_second)
        self.clock = clock
        self.tokens = float(capacity)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def new_bucket() -> FrameBucket:
    """A bucket sized by LUDOPAT_FRAME_RATE = (burst, frames per second)."""
    capacity, per_second = getattr(settings, "LUDOPAT_FRAME_RATE", DEFAULT_RATE)
    return FrameBucket(int(capacity), float(per_second))
