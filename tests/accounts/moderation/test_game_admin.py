"""A game's live fields are never edited in an admin form (a save racing a move would rewind the game);
moderators read games and open their pages from the admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from tests.games.webplay import computer_game, fresh, member

from .conftest import logged_in

pytestmark = pytest.mark.django_db


def test_nobody_can_edit_or_delete_a_game_in_the_admin(django_user_model, moderator):
    root = django_user_model.objects.create_superuser("root", password="pw-pw-pw-pw-pw")
    game = computer_game(member(root))
    before = fresh(game)
    url = reverse("admin:games_game_change", args=[game.pk])
    for user in (root, moderator):
        client = logged_in(user)
        page = client.get(url)
        assert page.status_code == 200
        assert b'name="_save"' not in page.content and b'name="version"' not in page.content
        assert reverse("game", args=[game.pk]).encode() in page.content  # the live page's link
        assert before.server_seed.encode() not in page.content  # the round's seed stays secret
        hostile = {"status": "finished", "version": "0", "state": "{}", "nonce": "0"}
        assert client.post(url, hostile).status_code == 403
        assert client.get(reverse("admin:games_game_add")).status_code == 403
        assert (
            client.post(
                reverse("admin:games_game_delete", args=[game.pk]), {"post": "yes"}
            ).status_code
            == 403
        )
    after = fresh(game)
    assert (after.status, after.version, after.state, after.nonce) == (
        before.status,
        before.version,
        before.state,
        before.nonce,
    )
    assert Game.objects.count() == 1
