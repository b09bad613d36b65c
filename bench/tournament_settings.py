"""Settings of bench/tournaments.py's processes: the site's own, with the computer's pace for absent
seats (LUDOPAT_AWAY_DELAY, the bench's --pace) and a short countdown before each start."""

import os

from ludopat.settings import *  # noqa: F403

LUDOPAT_AWAY_DELAY = float(os.environ.get("LUDOPAT_AWAY_DELAY", "2.0"))
LUDOPAT_TOURNAMENT_START_DELAY = float(os.environ.get("LUDOPAT_TOURNAMENT_START_DELAY", "1"))
# An absent player's seat is played as a computer's, after the computer's delay: the bench's pace too.
LUDOPAT_BOT_DELAY = float(os.environ.get("LUDOPAT_BOT_DELAY", "0.9"))
