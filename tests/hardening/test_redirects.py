"""An action's `next` only ever leads to one of our own pages."""

from __future__ import annotations

import pytest

from games.models import Game

pytestmark = pytest.mark.django_db
SETUP = {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy"}


@pytest.mark.parametrize("target", ["/\\evil.example/", "//evil.example/", "https://evil.example/"])
def test_next_never_leads_off_site(client, redis_client, target):
    client.post("/games/new/computer/", SETUP)
    game = Game.objects.get()
    response = client.post(f"/games/{game.pk}/abandon", {"next": target})
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"


def test_next_leads_to_our_own_page(client, redis_client):
    client.post("/games/new/computer/", SETUP)
    game = Game.objects.get()
    response = client.post(f"/games/{game.pk}/abandon", {"next": "/"})
    assert response["Location"] == "/"
