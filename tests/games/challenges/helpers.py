"""Accounts, challenges and what their pages are told, for the challenges' tests."""

from __future__ import annotations

import itertools

from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.challenges import live
from games.challenges.issuing import do_challenge
from games.challenges.models import Challenge
from games.challenges.rules import terms_for
from tests.factories import member, seasoned_account

_names = itertools.count()


def player(name: str = "") -> User:
    return seasoned_account(name or f"player{next(_names)}")


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def challenge(a: User, b: User, **terms) -> Challenge:
    """`a` challenges `b` (a rated 2-player classic table at 15 s unless `terms` say otherwise)."""
    terms.setdefault("ruleset", "classic")
    return do_challenge(member(a), b.username, terms_for(**terms))


def ban(user: User) -> None:
    User.objects.filter(pk=user.pk).update(banned_at=timezone.now(), ban_reason="Spam")


def told(monkeypatch) -> dict[int, list[str]]:
    """{account id: the notices pushed to its open pages}, filled as they are sent (after commit)."""
    sent: dict[int, list[str]] = {}
    monkeypatch.setattr(
        live, "send_to_account", lambda uid, html: sent.setdefault(uid, []).append(html)
    )
    return sent
