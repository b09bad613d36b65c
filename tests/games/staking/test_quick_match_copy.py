"""The staked lobby's words for quick match say how it pairs, in the pairing's own numbers."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.staking import pairing
from tests.factories import seasoned_account
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db


def test_quick_match_says_it_pairs_by_rating_as_it_does(client):
    client.force_login(seasoned_account("ann"))
    page = client.get(reverse("staked_lobby")).content.decode()
    copy = re.search(r'data-testid="quick-match-copy">([^<]*)<', page).group(1)
    assert "a player near your rating" in copy
    assert f"±{pairing.RANGE_START} of your rating" in copy
    assert f"after {pairing.ANYONE_AFTER} s, anyone" in copy
    assert "longest-waiting" not in page
