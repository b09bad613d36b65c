"""A second factor for staff: a password alone never opens the desk or the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.moderation.roles import MODERATOR, ensure_roles

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-staff-password"


@pytest.fixture
def moderator(django_user_model):
    ensure_roles()
    user = django_user_model.objects.create_user("mod", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATOR))
    return user


def password_only(user) -> Client:
    """Logged in through the log-in page with the password, and nothing else."""
    client = Client()
    answer = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert answer.status_code == 302
    return client


@pytest.mark.xfail(
    strict=True,
    reason="issue 38 item 15: a staff session with a password only opens the desk and the admin",
)
@pytest.mark.parametrize("page", ["/desk/", "/admin/"])
def test_a_staff_password_alone_opens_neither_the_desk_nor_the_admin(moderator, page):
    answer = password_only(moderator).get(page, follow=True)
    assert answer.status_code == 403
    assert "second factor" in answer.content.decode()
