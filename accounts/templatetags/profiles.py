"""`{{ name|profile_url }}`: a player page's address, without a URL reversal per row.

The leaderboard draws up to 100 names a page; `{% url 'profile' name %}` resolved the pattern
each time, a quarter of the page's rendering. The pattern is reversed once per script prefix and
the name quoted as `reverse` quotes it (tests/accounts/test_profile_links.py holds them equal).
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from django import template
from django.urls import get_script_prefix, reverse
from django.utils.http import RFC3986_SUBDELIMS

register = template.Library()

_PLACEHOLDER = "profile-name-placeholder"


@lru_cache(maxsize=8)
def _around(prefix: str) -> tuple[str, str]:
    """The address before and after the name, for this script prefix."""
    before, after = reverse("profile", args=[_PLACEHOLDER]).split(_PLACEHOLDER)
    return before, after


@register.filter
def profile_url(username: str) -> str:
    before, after = _around(get_script_prefix())
    return f"{before}{quote(username, safe=RFC3986_SUBDELIMS + '/~:@')}{after}"
