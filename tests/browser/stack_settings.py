"""Settings of the browser tests' daphne and Celery processes: the site's own, except that computers
don't pause before each action, a full tournament starts sooner, the flood limit allows a scripted
player's pace (a whole game against the computer then takes seconds, not minutes), and passwords are
hashed as the test process hashes them (tests/fast_hashing.py)."""

import os

from ludopat.settings import *  # noqa: F403
from tests import fast_hashing

PASSWORD_HASHERS = fast_hashing.PASSWORD_HASHERS

LUDOPAT_BOT_DELAY = float(os.environ.get("LUDOPAT_BOT_DELAY", "0.05"))
LUDOPAT_ACTION_RATE = (300, 10)
# A full sit-and-go starts 3 s after its last seat is taken, not 10 (tests/browser/test_tournament.py).
LUDOPAT_TOURNAMENT_START_DELAY = 3.0
# Scheduled series are opened every 2 s, not every minute (tests/browser/test_series.py).
CELERY_BEAT_SCHEDULE["open-tournament-series"]["schedule"] = 2.0  # noqa: F405
