"""People for the tests of games/actions: the actors (games.actions.Actor) of fresh accounts."""

from __future__ import annotations

import pytest

from tests.factories import member


@pytest.fixture
def host(django_user_model):
    return member(django_user_model.objects.create_user("hostess"))


@pytest.fixture
def guest(django_user_model):
    return member(django_user_model.objects.create_user("guesto"))


@pytest.fixture
def third(django_user_model):
    return member(django_user_model.objects.create_user("thirdy"))


@pytest.fixture
def alice(django_user_model):
    return member(django_user_model.objects.create_user("alice"))


@pytest.fixture
def bob(django_user_model):
    return member(django_user_model.objects.create_user("bob"))
