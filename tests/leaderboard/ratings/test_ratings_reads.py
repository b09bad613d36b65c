"""What pages and quick match read of the ratings: every asked player gets a number."""

from __future__ import annotations

import pytest

from leaderboard.models import Rating
from leaderboard.ratings.reads import ShownRating, shown_ratings
from tests.leaderboard.people import accounts

pytestmark = pytest.mark.django_db


def test_a_player_never_rated_gets_the_provisional_default_and_a_rated_one_their_number():
    ann, ben = accounts("ann", "ben")
    Rating.objects.create(user=ann, ruleset="duel", mu=27.5, sigma=4.0, value=1650, games=30)

    assert shown_ratings([ann.pk, ben.pk], "duel") == {
        ann.pk: ShownRating(1650, provisional=False, games=30),
        ben.pk: ShownRating(1500, provisional=True, games=0),
    }
    # Another rule set's rating is not this one's.
    assert shown_ratings([ann.pk], "classic") == {ann.pk: ShownRating(1500, True, 0)}
