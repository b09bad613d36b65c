"""Settings of the integration tests' Celery worker and beat: the browser stack's (computers that don't
pause, a scripted player's flood limit) with a short disconnection grace and away delay, so the tests
wait seconds, not minutes. The test process sets the same values (conftest.py)."""

from tests.browser.stack_settings import *  # noqa: F403

LUDOPAT_DISCONNECT_GRACE = 1.5
LUDOPAT_AWAY_DELAY = 0.5
