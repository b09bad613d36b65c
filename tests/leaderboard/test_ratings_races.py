"""Two rounds sharing a player end at the same time (PostgreSQL): the second waits for the first's
rating rows, rates on top of it, and the stored ratings are what a replay of the results gives."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from leaderboard.models import Rating, Result
from leaderboard.ratings.update import lock_ratings
from leaderboard.results import FinishedRound, SeatFacts, record_played
from tests.races import interleave, postgres_only

from .helpers import bare_round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]

WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)


def ending(order):
    """The round-end write of a duel between `order` (first place first), to call later."""
    kept = bare_round("duel")
    seats = [SeatFacts(i, u.pk, u.username) for i, u in enumerate(order)]
    played = FinishedRound(kept.pk, "duel", seats, [0, 1], "won", WHEN)
    return lambda: record_played(played)


def test_two_rounds_sharing_a_player_rate_one_after_the_other():
    ann, ben, cat = (get_user_model().objects.create_user(n) for n in ("ann", "ben", "cat"))
    first, second = ending([ann, ben]), ending([ben, cat])

    # The first round's end has taken ben's rating row when the second's starts: the second waits
    # for it before writing its results, so its results come after the first's, as it is rated.
    done = interleave(lambda: lock_ratings([ben.pk], "duel"), first, second)
    assert not any(isinstance(side, BaseException) for side in done), done

    assert Rating.objects.get(user=ben, ruleset="duel").games == 2
    lost, won = Result.objects.filter(user=ben).order_by("pk")
    assert (lost.place, won.place) == (2, 1) and won.pk > lost.pk  # written in the order rated
    assert won.rating_change > 0 > lost.rating_change
    call_command("recompute_ratings", "--check", "--ruleset", "duel")  # what a replay gives
