"""A rated round moves its players' ratings as the library's own `rate` says, in the round-end
transaction, and stores the change a player sees at the end of the round."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from leaderboard.models import Rating, Result
from leaderboard.ratings.scale import shown
from tests.leaderboard.helpers import finish, room
from tests.leaderboard.people import accounts

pytestmark = pytest.mark.django_db


def library_rate(before: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """openskill's own answer for a free-for-all in this order (first place first)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=list(range(1, len(teams) + 1)))]


def rating_of(user, ruleset: str) -> tuple[float, float]:
    row = Rating.objects.get(user=user, ruleset=ruleset)
    return row.mu, row.sigma


@pytest.mark.parametrize(("ruleset", "count"), [("duel", 2), ("classic", 3), ("places", 4)])
def test_two_rounds_move_ratings_as_the_library_rates_them(ruleset, count):
    users = accounts(*[f"p{i}" for i in range(count)])
    game = room(users, ruleset)
    first_order = list(reversed(users))
    finish(game, first_order)

    expected = library_rate([(25.0, 25.0 / 3)] * count)
    assert [rating_of(u, ruleset) for u in first_order] == expected
    # The end of the round shows each player their change: the winner gains, the last loses.
    changes = [Result.objects.get(user=u).rating_change for u in first_order]
    assert changes == [shown(mu) - 1500 for mu, _ in expected]
    assert changes[0] > 0 > changes[-1]

    # A second round starts from the ratings the first left.
    second_order = users[1:] + users[:1]
    before = [rating_of(u, ruleset) for u in second_order]
    game2 = room(users, ruleset)
    finish(game2, second_order)
    assert [rating_of(u, ruleset) for u in second_order] == library_rate(before)
    assert all(Rating.objects.get(user=u, ruleset=ruleset).games == 2 for u in users)
    assert not Rating.objects.exclude(ruleset=ruleset).exists()  # one rule set's rating only
