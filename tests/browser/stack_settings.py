"""Settings of the browser tests' daphne and Celery processes: the site's own, except that computers
don't pause before each action and the flood limit allows a scripted player's pace (a whole game
against the computer then takes seconds, not minutes)."""

import os

from ludopat.settings import *  # noqa: F403

LUDOPAT_BOT_DELAY = float(os.environ.get("LUDOPAT_BOT_DELAY", "0.05"))
LUDOPAT_ACTION_RATE = (300, 10)
