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

_PLACEHOLDER = "address-placeholder"


@lru_cache(maxsize=32)
def address_around(url_name: str, prefix: str) -> tuple[str, str]:
    """The address of `url_name` (one argument) before and after its argument, for this script
    prefix: reversed once, then a row's value goes between the two."""
    before, after = reverse(url_name, args=[_PLACEHOLDER]).split(_PLACEHOLDER)
    return before, after


@register.filter
def profile_url(username: str) -> str:
    before, after = address_around("profile", get_script_prefix())
    return f"{before}{quote(username, safe=RFC3986_SUBDELIMS + '/~:@')}{after}"
