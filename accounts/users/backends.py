"""Log-in: a timed ban ends by itself."""

from __future__ import annotations

from typing import Any

from .sanctions import lift_expired_ban


class LiftExpiredBan:
    """Listed before Django's ModelBackend: a player whose timed ban has run out is made active again
    before the password is checked. It never logs anyone in itself (ModelBackend does)."""

    def authenticate(
        self,
        request: object,  # Django's signature: not read
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if username:
            lift_expired_ban(username)
        return None  # no get_user either: Django's test client logs in with the first backend having one
