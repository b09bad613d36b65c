"""After a rename, no page in any process shows the old name: not the move log or
the message line (their stored text named the player), not a board a process rendered before the
rename and keeps in memory, not the chat, replay, record, leaderboard or player pages, and an open
page is pushed the new name."""

from __future__ import annotations

import subprocess
import sys

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.moderation import renames
from accounts.moderation.roles import MODERATOR
from games import actions
from games.actions import SeatSpec, TimerSpec, chat, pauses
from games.models import Game, Round, Seat
from tests.games.test_consumers import connect, latest, session_for
from tests.games.webplay import SEED, everyone_here, fresh, member, step
from tests.stack import ROOT, service_env

from .conftest import staff

OLD, NEW = "Zorblax9", "Quietname"


@pytest.fixture(autouse=True)
def seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests


def finished_room():
    """A timed room `OLD` joined, played a little in, chatted in during a pause, then resigned."""
    users = get_user_model().objects
    host, renamed = users.create_user("victim"), users.create_user(OLD)
    game = actions.create_game(
        member(host),
        "friends",
        "classic",
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(30, 2, 60),
    )
    actions.do_join(game.pk, member(renamed))
    everyone_here(game)
    actions.do_start(game.pk, member(host))
    by_user = {host.pk: member(host), renamed.pk: member(renamed)}
    for _ in range(6):
        step(game, lambda seat: by_user[seat.user_id])
    pauses.do_pause(game.pk, member(renamed))
    chat.do_chat(game.pk, member(renamed), "hello there")
    pauses.do_resume(game.pk, member(renamed))
    actions.do_resign(game.pk, member(renamed))
    return fresh(game), host, renamed


def pages(game: Game, host) -> dict[str, str]:
    """Every page that shows the players of `game`, as its host and as a stranger see them."""
    kept = Round.objects.get(game=game, number=1)
    urls = [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/replay/",
        f"/games/{game.pk}/record.json",
        f"/replays/{kept.public_id}/",
        f"/replays/{kept.public_id}/record.json",
        "/leaderboard/",
        "/leaderboard/?board=all",
        "/u/victim/",
        "/",
        "/staked/",
    ]
    seen = {}
    signed_in = Client()
    signed_in.force_login(host)
    for name, client in (("host", signed_in), ("stranger", Client())):
        for url in urls:
            answer = client.get(url)
            assert answer.status_code == 200, (url, answer.status_code)
            seen[f"{name} {url}"] = answer.content.decode()
        live = client.get(f"/games/{game.pk}/live", HTTP_HX_REQUEST="true")
        seen[f"{name} live"] = live.content.decode()
    return seen


@pytest.mark.django_db
def test_after_a_rename_no_page_shows_the_old_name():
    game, host, renamed = finished_room()
    before = pages(game, host)  # also fills this process's board cache
    assert OLD in before["host live"] and OLD in before[f"host /games/{game.pk}/"]
    moderator = staff(get_user_model(), "mod", MODERATOR)

    renames.do_rename(moderator, renamed, new_username=NEW, reason="Offensive name")

    after = pages(game, host)
    assert NEW in after["host live"] and NEW in after[f"host /games/{game.pk}/replay/"]
    showing_old = [page for page, html in after.items() if OLD in html]
    assert showing_old == []
    assert NEW in Client().get(f"/u/{NEW}/").content.decode()


RENAME_ELSEWHERE = """
import django
django.setup()
from django.contrib.auth import get_user_model
from accounts.moderation import renames
users = get_user_model().objects
renames.do_rename(
    users.get(pk={moderator}), users.get(pk={user}), new_username="{new}", reason="Offensive name"
)
"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_rename_in_another_process_reaches_this_process_pages(django_db_blocker):
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # this test's event loop gets a layer of its own
    game, host, renamed = await database_sync_to_async(finished_room)()
    moderator = await database_sync_to_async(staff)(get_user_model(), "mod", MODERATOR)
    # This process renders the finished board (an open page, and the cache a page load reads).
    ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    assert OLD in await latest(ws)
    viewer = Client()
    await database_sync_to_async(viewer.force_login)(host)
    page = await database_sync_to_async(viewer.get)(f"/games/{game.pk}/")
    assert OLD in page.content.decode()

    env = await database_sync_to_async(service_env)("ludopat.settings", django_db_blocker)
    script = RENAME_ELSEWHERE.format(moderator=moderator.pk, user=renamed.pk, new=NEW)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]

    page = await database_sync_to_async(viewer.get)(f"/games/{game.pk}/")
    assert NEW in page.content.decode() and OLD not in page.content.decode()
    pushed = await latest(ws)  # the open page is told, without a reload
    assert NEW in pushed and OLD not in pushed
    await ws.disconnect()
