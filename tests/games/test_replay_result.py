"""A replay says who won and how the round ended, from the round's stored result:
a round ended by a resignation has no winner in its moves, so the replay can't find one by replaying
them."""

from __future__ import annotations

import re

import pytest

from games import actions
from games.models import Round
from tests.games.webplay import member
from tests.leaderboard.helpers import accounts, room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_redis(redis_client):
    """Actions tell live pages through Redis after commit: an empty one per test."""


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_replay_of_a_resigned_round_says_who_won_and_that_the_loser_resigned(client):
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben], "duel")
    actions.do_resign(game.pk, member(ben))
    kept = Round.objects.get(game=game, number=1)

    for url in (f"/replays/{kept.public_id}/", f"/games/{game.pk}/replay/"):
        page = client.get(url)
        assert page.status_code == 200
        lead = _text(page.content.decode())
        assert "ben resigned" in lead, url
        places = re.search(r'data-testid="replay-places">(.*?)</ol>', page.content.decode(), re.S)
        items = re.findall(r"<li>(.*?)</li>", places.group(1)) if places else []
        assert [item.split()[0] for item in items] == ["ann", "ben"], url  # first place first
    record = client.get(f"/replays/{kept.public_id}/record.json").json()
    assert record["result"]["how"] == "resign"
    assert [p["name"] for p in record["result"]["places"]] == ["ann", "ben"]
