"""The rule sets say who sits where: seat colours per player count, corners, and how many may play."""

import pytest

from games import engine

RULESETS = ("classic", "duel", "places", "twodice")


def test_classic_and_places_seat_two_to_four_in_rules_order():
    for name in ("classic", "places"):
        assert engine.seat_counts(name) == (2, 3, 4)
        assert engine.seat_colours(name, 2) == (("red",), ("yellow",))
        assert engine.seat_colours(name, 3) == (("red",), ("green",), ("yellow",))
        assert engine.seat_colours(name, 4) == (("red",), ("green",), ("yellow",), ("blue",))


def test_duel_is_red_against_blue_from_opposite_corners():
    assert engine.seat_counts("duel") == (2,)
    assert engine.seat_colours("duel", 2) == (("red",), ("blue",))
    assert engine.corners("duel") == {"red": 0, "blue": 2}


def test_twodice_is_two_players_of_two_colours_each():
    assert engine.seat_counts("twodice") == (2,)
    assert engine.seat_colours("twodice", 2) == (("red", "green"), ("yellow", "blue"))
    assert engine.corners("twodice") == {"red": 0, "green": 1, "yellow": 2, "blue": 3}


@pytest.mark.parametrize("name", RULESETS)
def test_every_seating_the_rule_set_offers_starts_a_game(name):
    for count in engine.seat_counts(name):
        state = engine.new_game(name, engine.seat_colours(name, count))
        assert len(state.players) == count
        corners = engine.corners(name)
        # Every colour in play has a corner, and no two colours share one.
        assert len({corners[c] for c in state.colours}) == len(state.colours)


@pytest.mark.parametrize(("name", "count"), [("duel", 4), ("twodice", 3), ("classic", 5)])
def test_a_count_the_rule_set_cannot_seat_is_refused(name, count):
    with pytest.raises(engine.MalformedError):
        engine.seat_colours(name, count)


def test_corners_is_a_copy_the_caller_may_change():
    engine.corners("duel")["blue"] = 3
    assert engine.corners("duel")["blue"] == 2
