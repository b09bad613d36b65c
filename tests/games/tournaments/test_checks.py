"""The tournaments' part of check_ledger finds what it is there to find (the other tests assert, through
`ledger_stays_balanced`, that it finds nothing wrong in every tournament they play)."""

from __future__ import annotations

import pytest

from accounts.ledger import pools
from accounts.ledger.checks import problems

pytestmark = pytest.mark.django_db


def test_a_pool_no_tournament_points_at_is_a_problem():
    pools.open_pool()
    assert any("Pools without a tournament" in p for p in problems())
