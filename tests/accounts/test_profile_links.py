"""The leaderboard's cheap player links are the addresses `reverse` gives."""

from __future__ import annotations

import pytest
from django.urls import reverse, set_script_prefix

from accounts.web.templatetags.profiles import profile_url


@pytest.mark.parametrize("name", ["ann", "Zoë_1", "a.b+c-d@e", "日本", "x" * 150])
def test_a_profile_link_is_the_reversed_address(name):
    assert profile_url(name) == reverse("profile", args=[name])


def test_a_script_prefix_is_kept():
    set_script_prefix("/ludo/")
    try:
        assert profile_url("ann") == reverse("profile", args=["ann"]) == "/ludo/u/ann/"
    finally:
        set_script_prefix("/")
