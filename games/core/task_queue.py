"""Queueing Celery tasks by name, so that the code that queues them (the clock of games.actions,
games.core.presence) never imports games.tasks, which imports the actions."""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


def send_task(name: str, args: tuple, **options: Any) -> bool:
    """Queue a Celery task by name.

    A failure (the broker is down) is logged, not raised: the action is already committed, and every
    state where the system acts next has a deadline that the sweeper acts on.
    """
    from ludopat.celery import app

    try:
        app.send_task(name, args, **options)
        return True
    except Exception:
        log.exception("could not queue %s%s", name, args)
        return False
