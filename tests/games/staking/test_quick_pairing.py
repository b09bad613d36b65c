"""Rated quick match's pure choices (games/staking/pairing.py): the range a waiting player is searched
in, who may meet whom, and the sweep's closest-first pairs."""

from __future__ import annotations

import random

from games.staking.pairing import Waiting, closest_first, may_meet, search_range


def test_the_range_starts_at_100_widens_20_a_whole_second_caps_at_400_then_anyone_at_30_s():
    assert [search_range(s) for s in (0, 0.5, 1, 2, 10, 14.9, 15, 20, 29.99)] == [
        100,
        100,
        120,
        140,
        300,
        380,
        400,
        400,
        400,
    ]
    assert search_range(30) is None and search_range(600) is None
    assert search_range(-1) == 100  # a clock a little behind the entry's: the press's range


def test_both_players_must_be_within_each_others_range():
    # 150 apart: the one who waited 10 s (±300) would take the newcomer (±100), who wouldn't.
    assert not may_meet(1500, 10, 1650, 0)
    assert not may_meet(1500, 10, 1650, 2.9)  # the newcomer's range: 140
    assert may_meet(1500, 10, 1650, 3)
    assert not may_meet(1000, 40, 2000, 29)  # anyone for one, ±400 for the other
    assert may_meet(1000, 40, 2000, 30)


def _entry(name: str, rating: int, since: float) -> Waiting:
    return Waiting(name, hash(name) & 0xFFFF, rating, since)


def _names(pairs) -> list[tuple[str, str]]:
    return [(a.game_id, b.game_id) for a, b in pairs]


def test_closest_first_not_longest_waiting():
    a, b, c = _entry("a", 1500, 0), _entry("b", 1650, 2), _entry("c", 1560, 4)
    # At 10 s: a ±300, b ±260, c ±220: every two are in range; the closest (a, c) pair, b waits.
    assert _names(closest_first([b, c, a], now=10)) == [("a", "c")]
    # Without c, a and b (150 apart) wait until b's range reaches 160, 3 s after its press.
    assert closest_first([a, b], now=4.9) == []
    assert _names(closest_first([a, b], now=5)) == [("a", "b")]


def test_a_tie_in_gap_goes_to_the_longest_waiting_and_each_entry_pairs_once():
    old, mid, new = _entry("old", 1400, 0), _entry("mid", 1500, 1), _entry("new", 1600, 2)
    assert _names(closest_first([new, mid, old], now=5)) == [("old", "mid")]
    pairs = closest_first([_entry(str(i), 1500 + i, i / 10) for i in range(7)], now=31)
    taken = [e.game_id for pair in pairs for e in pair]
    assert len(pairs) == 3 and len(set(taken)) == 6


def test_pairs_refused_by_may_play_are_left_out():
    a, b, c = _entry("a", 1500, 0), _entry("b", 1510, 0), _entry("c", 1480, 0)
    same_browser = {("a", "b")}  # the closest two (10 apart) may not play for coins
    pairs = closest_first([a, b, c], 10, lambda x, y: (x.game_id, y.game_id) not in same_browser)
    assert _names(pairs) == [("a", "c")]


def test_every_pair_is_within_both_ranges_and_anyone_waiting_30_s_is_paired():
    rng = random.Random(23)
    entries = [_entry(f"e{i}", rng.randint(900, 2600), rng.uniform(0, 40)) for i in range(40)]
    now = 41.0
    pairs = closest_first(entries, now)
    for a, b in pairs:
        assert may_meet(a.rating, now - a.since, b.rating, now - b.since)
        assert a.since <= b.since  # (earlier, later)
    left = [e for e in entries if e.game_id not in {x.game_id for p in pairs for x in p}]
    assert sum(now - e.since >= 30 for e in left) <= 1  # of those in "anyone", one at most is odd
