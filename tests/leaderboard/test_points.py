import doctest

import pytest

from leaderboard import points
from leaderboard.points import points_for


@pytest.mark.parametrize(
    ("players", "expected"), [(2, [10, 0]), (3, [10, 6, 0]), (4, [10, 6, 3, 0])]
)
def test_each_place_scores_as_rules_section_7_says(players, expected):
    assert [points_for(place, players) for place in range(1, players + 1)] == expected


def test_a_place_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="place 3 does not exist among 2 players"):
        points_for(3, 2)


def test_docstring_examples():
    assert doctest.testmod(points).failed == 0
