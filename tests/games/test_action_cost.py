"""What one action costs: database queries per roll and move are pinned, and a viewer's update costs
no query once a connection with the same viewpoint rendered that version."""

from __future__ import annotations

import re
import sys

import pytest
from django.db import connection

from games import actions, engine
from games.core import caches, presence, selectors, stamp
from games.live.fragments import live_board, render_live, shared_board
from games.live.viewpoint import viewpoint_for
from tests.games.webplay import everyone_here, fresh, friends_room, member

# Committed for real: the process's caches keep only what was committed (games.core.caches), and what a
# POST or a push costs is measured as it runs, with them filled.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_viewers_update_costs_no_query_once_its_viewpoint_is_rendered(
    django_user_model, django_assert_num_queries, redis_client
):
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    actions.do_roll(game.pk, host, game.version)
    game = fresh(game)
    seats = list(game.seats.select_related("user"))
    watcher = viewpoint_for(game, seats, member(django_user_model.objects.create_user("nosy")))
    event = {
        "version": game.version,
        "status": game.status,
        "tag": stamp.board_stamp(stamp.Board.of(game), presence.connected_seats(game.pk)),
    }
    assert shared_board(game.pk, watcher, event) is None  # nobody rendered it yet
    first = live_board(game, watcher, seats=seats)  # the first spectator's connection renders
    with django_assert_num_queries(0):
        shared = shared_board(game.pk, watcher, event)  # every other spectator's costs nothing
    assert shared == first


def test_the_queries_of_a_roll_and_a_move_are_pinned(
    django_user_model, django_assert_max_num_queries, redis_client
):
    """A later change can't quietly multiply the database work of the two commonest actions."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    actors = {0: host, 1: guest}
    rolled = moved = 0
    for _ in range(60):
        game = fresh(game)
        state = actions.engine_state(game)
        seat = actions.turn_seat(game, list(game.seats.all()), state)
        actor = actors[seat.index]
        if engine.can_roll(state) and (
            state.awaiting == engine.ROLL or not engine.legal_moves(state)
        ):
            with django_assert_max_num_queries(ROLL_QUERIES):
                actions.do_roll(game.pk, actor, game.version)
            rolled += 1
        else:
            m = engine.legal_moves(state)[0]
            with django_assert_max_num_queries(MOVE_QUERIES):
                actions.do_move(game.pk, actor, game.version, m.colour, m.index, m.die, m.pair)
            moved += 1
        if rolled >= 5 and moved >= 5:
            break
    assert rolled >= 5 and moved >= 5


# Lock the game, read its seats, write the action and the game (plus the transaction's own
# statements); the engine state comes from memory or one read of the round's actions.
ROLL_QUERIES = 8
MOVE_QUERIES = 8


def test_a_whole_roll_by_post_reads_the_game_only_under_its_lock(
    django_user_model, django_assert_max_num_queries, redis_client, client, monkeypatch
):
    """The page's POST: the session and account, and the locked action. Who is asking and who is present
    are checked on the game and seats of the version the POST names, as this process kept them (it
    rendered the page); the answer renders the game and seats as the action wrote them, and its
    history one step on with the action it made. So the game is read once, locked."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    actions.do_roll(game.pk, host, game.version)  # the board's history so far is known here
    game = fresh(game)
    render_live(game, viewpoint_for(game, list(game.seats.all()), host))
    state = actions.engine_state(game)
    seat = actions.turn_seat(game, list(game.seats.all()), state)
    assert engine.legal_moves(state) or engine.can_roll(state)
    client.force_login(django_user_model.objects.get(pk=seat.user_id))
    assert client.get(f"/games/{game.pk}/").status_code == 200  # the page was open before the click
    name = "roll" if engine.can_roll(state) and not engine.legal_moves(state) else "move"
    data = {"version": game.version}
    if name == "move":
        m = engine.legal_moves(state)[0]
        data.update(colour=m.colour, index=m.index)
    readers = []  # who reads presence (Redis) during the POST
    read = presence.connected_seats

    def counted(game_id):
        readers.append(sys._getframe(1).f_code.co_filename)
        return read(game_id)

    monkeypatch.setattr(presence, "connected_seats", counted)
    built = []  # objects built anew from the kept rows (caches.ROWS) for the answer
    build = caches.Rows.build
    monkeypatch.setattr(caches.Rows, "build", lambda rows: built.append(rows) or build(rows))
    with django_assert_max_num_queries(POST_QUERIES) as queries:
        answer = client.post(f"/games/{game.pk}/{name}", data, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content.decode()[:300]
    sql = [q["sql"] for q in queries.captured_queries]  # the reads of the game, alone or joined:
    games_read = [
        s for s in sql if s.startswith("SELECT") and '"games_game"' in s.split(" WHERE ")[0]
    ]
    assert len(games_read) == 1  # the action's own: locked (SQLite's transaction locks everything)
    assert connection.vendor != "postgresql" or "FOR UPDATE" in games_read[0]
    # Built once, for the asker check, from the version's kept rows; the answer renders the objects
    # the action committed in its thread.
    assert [rows.game[0] for rows in built] == [game.pk]
    assert f'data-version="{game.version + 1}"' in answer.content.decode()
    # The push reads who is here once; the answer's board shows what it read (both players online).
    assert sum(r.endswith("games/core/broadcast.py") for r in readers) == 1
    assert not [r for r in readers if r.endswith("games/live/fragments.py")]
    html = answer.content.decode()
    assert 'data-testid="conn-0">online' in html and 'data-testid="conn-1">online' in html


# The session, the account and the action's own ROLL_QUERIES: the asker check reads the rows kept for
# the version, and the answer renders the game, the seats and the new step of the history that the
# action kept.
POST_QUERIES = 2 + ROLL_QUERIES


def test_the_renders_of_a_roll_or_a_move_read_no_game_and_no_seats(
    django_user_model, django_assert_num_queries, redis_client
):
    """The mover's answer and the other seats' and spectators' sockets render the version within
    milliseconds of its commit: a roll or a move kept the game and seats it wrote, so none of them
    reads them (before: one read per process), and each render gets objects of its own."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    rolled = actions.do_roll(game.pk, host, game.version)
    with django_assert_num_queries(0):
        first, seats = selectors.game_and_seats_at(game.pk, rolled.version)
        again, again_seats = selectors.game_and_seats_at(game.pk, rolled.version)
    assert first.version == rolled.version and len(seats) == 2
    # Each render gets objects of its own (the threads of a process never share one), equal.
    assert again is not first and again_seats[0] is not seats[0]
    assert [(f.attname, getattr(again, f.attname)) for f in again._meta.concrete_fields] == [
        (f.attname, getattr(first, f.attname)) for f in first._meta.concrete_fields
    ]
    assert [(s.pk, s.user.username, s.game is again) for s in again_seats] == [
        (s.pk, s.user.username, True) for s in seats
    ]
    state = actions.engine_state(first)
    actor = host if actions.turn_seat(first, seats, state).index == 0 else guest
    if engine.legal_moves(state):
        m = engine.legal_moves(state)[0]
        newer = actions.do_move(game.pk, actor, first.version, m.colour, m.index, m.die, m.pair)
    else:
        newer = actions.do_roll(game.pk, actor, first.version)
    with django_assert_num_queries(0):
        later, _ = selectors.game_and_seats_at(game.pk, newer.version)
    assert later.version == first.version + 1


def test_a_version_no_turn_made_is_read_once_for_all_its_renders(
    django_user_model, django_assert_num_queries, redis_client
):
    """Any other action (here the start of a round) keeps nothing of its own: the first render of its
    version reads the game and seats once, and the others share that read."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    with django_assert_num_queries(1):
        first, seats = selectors.game_and_seats_at(game.pk, game.version)
    with django_assert_num_queries(0):
        again, _ = selectors.game_and_seats_at(game.pk, game.version)
    assert first.version == again.version == game.version and len(seats) == 2


def test_a_posts_answer_leaves_out_the_ground_the_page_shows(
    django_user_model, redis_client, client
):
    """The page names the board's ground it shows (X-Board-Ground): the answer carries an empty
    placeholder htmx keeps it in place of; a page that names another ground gets the whole board."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)

    def act(shown_ground: str | None) -> tuple[str, str]:
        """The next action by whoever is to play, from their page, naming `shown_ground`."""
        now = fresh(game)
        state = actions.engine_state(now)
        seat = actions.turn_seat(now, list(now.seats.all()), state)
        client.force_login(django_user_model.objects.get(pk=seat.user_id))
        page = client.get(f"/games/{now.pk}/").content.decode()
        data = {"version": now.version}
        name = "roll"
        if not (engine.can_roll(state) and not engine.legal_moves(state)):
            m = engine.legal_moves(state)[0]
            name, data = "move", {**data, "colour": m.colour, "index": m.index}
        ground = re.search(r'id="board-ground" data-ground="([0-9a-f]+)"', page).group(1)
        headers = {"HTTP_X_BOARD_GROUND": ground if shown_ground is None else shown_ground}
        answer = client.post(f"/games/{now.pk}/{name}", data, HTTP_HX_REQUEST="true", **headers)
        assert answer.status_code == 200, answer.content.decode()[:300]
        html = answer.content.decode()
        assert f'data-version="{now.version + 1}"' in html
        assert 'class="cell' in page  # the page itself is always whole
        return html, ground

    answer, ground = act(None)  # the page names the ground it shows
    assert f'<g id="board-ground" data-ground="{ground}" hx-preserve="true"></g>' in answer
    assert 'class="cell' not in answer
    whole, _ = act("0123456789ab")  # not this board's ground
    assert 'class="cell' in whole and "hx-preserve" not in whole
