"""People for the moderation tests: a player, a moderator, an admin (the groups made by post_migrate)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from accounts.moderation.roles import ADMIN, MODERATOR, ensure_roles
from games.models import ChatMessage
from tests.factories import verified_client
from tests.games.webplay import friends_room, member

PASSWORD = "a-long-test-password"


def staff(django_user_model, username: str, group: str):
    ensure_roles()  # a transactional test's flush empties the groups
    user = django_user_model.objects.create_user(username, password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    return django_user_model.objects.get(pk=user.pk)  # fresh: no cached permissions


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("troll", password=PASSWORD)


@pytest.fixture
def moderator(django_user_model):
    return staff(django_user_model, "mod", MODERATOR)


@pytest.fixture
def site_admin(django_user_model):
    return staff(django_user_model, "boss", ADMIN)


def logged_in(user) -> Client:
    """A client logged in as `user`; staff in a session their second factor verified, as the desk and
    the admin ask (tests/accounts/test_second_factor.py tests that they do)."""
    if user.is_staff:
        return verified_client(user)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def room(django_user_model, player):
    """A friends room of a victim (the host) and `player`: (game, victim)."""
    victim = django_user_model.objects.create_user("victim")
    game = friends_room(member(victim), [member(player)])
    return game, victim


def said(game, user, text: str, minutes_ago: int) -> ChatMessage:
    """A chat line of `user` in `game`, written `minutes_ago` minutes ago."""
    message = ChatMessage.objects.create(game=game, user=user, name=user.username, text=text)
    ChatMessage.objects.filter(pk=message.pk).update(
        created=timezone.now() - timedelta(minutes=minutes_ago)
    )
    message.refresh_from_db()
    return message
