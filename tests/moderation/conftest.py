"""People for the moderation tests: a player, a moderator, an admin (the groups made by post_migrate)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.moderation.roles import ADMIN, MODERATOR, ensure_roles

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
    client = Client()
    client.force_login(user)
    return client
