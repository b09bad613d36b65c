"""Who is asking is checked before the game's lock on the rows this process kept of the version the
action names, when that is the newest version it kept (games.web.commands.seen_for): a roll or a move
by its player reads nothing before its lock. A watcher is still refused without the lock; an older
version is checked on a fresh read; and whatever the first check let through, the check under the
lock refuses a seat given up since."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions
from games.core import caches, presence, selectors
from games.core.errors import NotAllowed
from games.models import Game, Seat
from games.web import commands
from tests.games.webplay import everyone_here, fresh, friends_room, member, turn_seat

# Committed for real: the rows are kept only once what they were read in commits (games.core.caches).
pytestmark = pytest.mark.django_db(transaction=True)


def _locked(sql: str) -> bool:
    """Whether a read of the game took its lock (SQLite locks the whole database instead: an action's
    transaction begins IMMEDIATE, and its reads say nothing)."""
    return connection.vendor != "postgresql" or "FOR UPDATE" in sql


def _games_read(queries: CaptureQueriesContext) -> list[str]:
    """The statements that read the game's row (alone, or joined to its seats)."""
    sql = [q["sql"] for q in queries.captured_queries]
    return [s for s in sql if s.startswith("SELECT") and '"games_game"' in s.split(" WHERE ")[0]]


@pytest.fixture
def players(django_user_model, redis_client):
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    return host, guest


def test_a_player_naming_the_newest_version_is_checked_without_a_read(players):
    host, guest = players
    game = friends_room(host, [guest])
    everyone_here(game)
    shown, _ = selectors.game_and_seats(game.pk)  # the page: this process kept the version's rows
    actor = host if turn_seat(shown).index == 0 else guest
    with CaptureQueriesContext(connection) as queries:
        done = commands.run("roll", game.pk, actor, {"version": str(shown.version)})
    assert done.version == shown.version + 1
    reads = _games_read(queries)
    assert len(reads) == 1 and _locked(reads[0])  # the action's own


def test_a_watcher_naming_the_newest_version_is_refused_before_the_lock(players, django_user_model):
    host, guest = players
    game = friends_room(host, [guest])
    rolled = actions.do_roll(game.pk, host, game.version)
    stranger = member(django_user_model.objects.create_user("nosy"))
    with CaptureQueriesContext(connection) as queries, pytest.raises(NotAllowed) as refused:
        commands.run("roll", game.pk, stranger, {"version": str(rolled.version)})
    assert str(refused.value) == commands.WATCHING  # the first check's refusal, before the lock
    assert _games_read(queries) == []
    assert fresh(game).version == rolled.version


def test_an_older_version_is_checked_on_a_fresh_read(players, client, django_user_model):
    """A guest who left the room POSTs naming the version at which they still sat (its rows are kept
    here, but a newer version's too): the first check reads the room afresh and refuses them without
    the lock, and their old seat is not marked present for whoever takes it next."""
    host, guest = players
    game = friends_room(host, [guest], start=False)
    seated, _ = selectors.game_and_seats(game.pk)  # the page of the room with the guest seated
    their_seat = Seat.objects.get(game=game, user_id=guest.user_id)
    actions.do_leave(game.pk, guest, version=seated.version)
    left, _ = selectors.game_and_seats(game.pk)
    assert left.version == seated.version + 1
    assert caches.ROWS.get((game.pk, seated.version)) is not None  # still kept, but not the newest
    presence.client().delete(presence._key(game.pk))  # nobody here (the join made them present)
    client.force_login(django_user_model.objects.get(pk=guest.user_id))
    answer = client.post(
        f"/games/{game.pk}/leave", {"version": seated.version}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 403, answer.content.decode()[:300]
    # The first check's refusal, before the lock (under it: "You have no seat in this room.").
    assert answer.content.decode() == commands.WATCHING
    assert their_seat.pk not in presence.connected_seats(game.pk)


def test_a_seat_given_up_in_another_process_is_refused_under_the_lock(players):
    """This process kept the newest version it knows, with the guest seated; another process has
    since freed the seat (here: the row written behind this process's back). The first check passes
    on the kept rows; the check under the lock refuses, and nothing changes."""
    host, guest = players
    game = friends_room(host, [guest], start=False)
    seated, _ = selectors.game_and_seats(game.pk)
    Seat.objects.filter(game=game, user_id=guest.user_id).update(
        kind=Seat.Kind.OPEN, user=None, player_key=""
    )
    Game.objects.filter(pk=game.pk).update(version=seated.version + 1)
    with CaptureQueriesContext(connection) as queries, pytest.raises(NotAllowed) as refused:
        commands.run("leave", game.pk, guest, {"version": str(seated.version)})
    assert str(refused.value) == "You have no seat in this room."  # the check under the lock
    reads = _games_read(queries)
    assert len(reads) == 1 and _locked(reads[0])  # the first check read nothing
    assert fresh(game).version == seated.version + 1
