"""The board geometry of docs/rules.md "The board"."""

import pytest

from games.engine import board


def test_corners_starts_and_stars():
    assert board.CORNER == {"red": 0, "green": 1, "yellow": 2, "blue": 3}
    assert [board.start_square(k) for k in range(4)] == [0, 13, 26, 39]
    assert [board.star_square(k) for k in range(4)] == [8, 21, 34, 47]


def test_safe_squares_are_the_four_starts_and_four_stars():
    assert {0, 8, 13, 21, 26, 34, 39, 47} == board.SAFE_SQUARES


@pytest.mark.parametrize(
    ("corner", "progress", "square"),
    [(0, 0, 0), (0, 50, 50), (1, 0, 13), (1, 38, 51), (1, 39, 0), (2, 26, 0), (3, 50, 37)],
)
def test_square_of_wraps_the_loop(corner, progress, square):
    assert board.square_of(corner, progress) == square
    assert board.SQUARE[corner][progress] == square
    assert board.progress_on_square(corner, square) == progress


@pytest.mark.parametrize("progress", [-1, 51, 55, 56])
def test_square_of_refuses_places_off_the_track(progress):
    with pytest.raises(ValueError, match="is not on the shared track"):
        board.square_of(0, progress)


def test_each_corner_never_visits_the_square_before_its_start():
    for corner in range(4):
        missing = (13 * corner - 1) % 52
        assert board.progress_on_square(corner, missing) == board.NOT_ON_PATH
        visited = {board.square_of(corner, p) for p in range(51)}
        assert visited == set(range(52)) - {missing}


def test_home_columns_are_private_cells():
    assert board.cell_of(0, 51) != board.cell_of(1, 51)
    assert board.cell_of(2, 53) == board.cell_of(2, 53)
    assert board.cell_of(0, -1) is None and board.cell_of(0, 56) is None
    assert board.cell_of(0, 13) == board.cell_of(1, 0)


def test_safe_progress_table_matches_the_squares():
    for corner in range(4):
        for p in range(57):
            expected = p <= 50 and board.square_of(corner, p) in board.SAFE_SQUARES
            assert board.SAFE_PROGRESS[corner][p] == expected
