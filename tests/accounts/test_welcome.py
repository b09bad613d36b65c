"""A new account is told, on the first page after sign-up, what its coins are for and where to start;
once."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from accounts.ledger import rules
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db


def test_sign_up_welcomes_with_the_coins_and_where_to_start(client):
    form = {"username": "newbie", "password1": "a-Long-pass-9876", "password2": "a-Long-pass-9876"}
    page = client.post(reverse("signup"), form, follow=True).content.decode()
    welcome = re.search(r'<li class="message[^"]*welcome[^"]*">(.*?)</li>', page, re.S)
    assert welcome, "no welcome"
    words = html.unescape(re.sub(r"<[^>]+>", "", welcome.group(1)))
    assert f"{rules.grant():,} coins" in words and "tournaments" in words and "free" in words
    for name in ("staked_lobby", "tournaments", "home", "wallet"):
        assert f'href="{reverse(name)}"' in welcome.group(1)
    assert "message-welcome" not in client.get(reverse("home")).content.decode()  # said once
