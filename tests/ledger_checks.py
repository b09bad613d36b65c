"""The ledger's invariants, asserted at the end of every test that touches coins.

    from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (an autouse fixture)

or call `assert_ledger_ok()` where a test wants to check mid-way.
"""

from __future__ import annotations

import pytest


def assert_ledger_ok() -> None:
    from accounts.ledger.checks import problems

    found = problems()
    assert not found, "ledger invariants broken:\n" + "\n".join(found)


@pytest.fixture(autouse=True)
def ledger_stays_balanced(db):
    """After the test body, before the database is flushed: every invariant of check_ledger holds.
    (Requesting `db` sets the database up first, so this runs before it is torn down; a
    `django_db(transaction=True)` marker still makes it transactional.)"""
    yield
    assert_ledger_ok()
