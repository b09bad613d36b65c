"""Who gets into the admin and what each role may do there."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.moderation.roles import ADMIN, MODERATOR

from .conftest import logged_in

pytestmark = pytest.mark.django_db


def admin_urls() -> list[str]:
    """Every page of the admin: the index, each app, and each registered model's pages."""
    urls = [reverse("admin:index")]
    for model in admin.site._registry:
        meta = model._meta
        urls.append(reverse("admin:app_list", args=[meta.app_label]))
        for name in ("changelist", "add"):
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_{name}"))
        for name in ("change", "delete", "history"):
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_{name}", args=["1"]))
    return sorted(set(urls))


def test_the_roles_exist_after_migrate():
    moderator = set(
        Group.objects.get(name=MODERATOR).permissions.values_list("codename", flat=True)
    )
    boss = set(Group.objects.get(name=ADMIN).permissions.values_list("codename", flat=True))
    assert {"ban_user", "mute_user", "rename_user", "view_game", "change_report"} <= moderator
    assert not {"adjust_coins", "void_game"} & moderator
    assert {"adjust_coins", "void_game"} | moderator <= boss


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_a_non_staff_user_is_refused_everywhere_under_admin(who, player):
    client = Client() if who == "anonymous" else logged_in(player)
    urls = admin_urls()
    assert len(urls) > 20
    for url in urls:
        for answer in (client.get(url), client.post(url, {"action": "ban", "_selected_action": 1})):
            assert answer.status_code in (302, 404), url
            if answer.status_code == 302:
                assert answer["Location"].startswith(reverse("admin:login")), url


def test_a_player_cannot_log_in_to_the_admin(player):
    client = Client()
    # The admin's log-in is the site's (with its code step for staff): a player's password works there,
    assert client.get(reverse("admin:login"))["Location"].startswith(reverse("login"))
    client.post(reverse("login"), {"username": "troll", "password": "a-long-test-password"})
    # and the admin still answers that it is for staff.
    answer = client.get(reverse("admin:index"), follow=True)
    assert answer.status_code == 403
    assert escape("The admin is for the site's staff.") in answer.content.decode()


def test_a_moderator_can_neither_adjust_coins_nor_void(moderator, site_admin):
    assert not moderator.has_perm("accounts.adjust_coins")
    assert not moderator.has_perm("games.void_game")
    assert site_admin.has_perm("accounts.adjust_coins")
    assert site_admin.has_perm("games.void_game")
    assert moderator.has_perm("accounts.ban_user")
