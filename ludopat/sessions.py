"""The session engine (SESSION_ENGINE): Django's database sessions, with the read every request makes
compiled once per process and database (ludopat.compiled_reads). Expiry is checked as Django's own
store checks it, on the row read by its key."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.models import Session
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone

from .compiled_reads import CompiledRead

SESSION_BY_KEY = CompiledRead(
    "a session by its key", Session, lambda key: Session.objects.filter(session_key=key)
)


class SessionStore(DatabaseStore):
    def _get_session_from_db(self) -> Any:
        try:
            found = SESSION_BY_KEY(self.session_key) if self.session_key else []
            if found and found[0].expire_date > timezone.now():
                return found[0]
        except SuspiciousOperation as error:
            logger = logging.getLogger(f"django.security.{error.__class__.__name__}")
            logger.warning(str(error))
        self._session_key = None
        return None
