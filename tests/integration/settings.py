"""Settings of the integration tests' Celery worker and beat: the browser stack's (computers that don't
pause, a scripted player's flood limit) with a short disconnection grace and away delay, so the tests
wait seconds, not minutes. The test process sets the same values (conftest.py)."""

import os

from tests.browser.stack_settings import *  # noqa: F403

# A test starting a stack of its own may pass others (test_tournament_scale.py: the computer's pace).
LUDOPAT_DISCONNECT_GRACE = float(os.environ.get("LUDOPAT_DISCONNECT_GRACE", "1.5"))
LUDOPAT_AWAY_DELAY = float(os.environ.get("LUDOPAT_AWAY_DELAY", "0.5"))
LUDOPAT_TOURNAMENT_START_DELAY = float(os.environ.get("LUDOPAT_TOURNAMENT_START_DELAY", "10"))
