"""Building finished rounds for the leaderboard tests without playing them out: the accounts, rooms and
rounds are made in tests/factories.py, and offered here under the names these tests always used."""

from __future__ import annotations

from tests.factories import accounts, bare_round, finish, room, seat_of, write

__all__ = ["accounts", "bare_round", "finish", "room", "seat_of", "write"]
