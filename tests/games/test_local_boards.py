"""The boards of a process's sockets are rendered once per version for all of them
(games.web.local_boards): by the thread that made the version, before its push, so that every socket
of that process sends its regions with no render and no query of its own; and in another process by
one thread for all its sockets of the game, however many the push reaches at once."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions, engine
from games.core import broadcast, caches, selectors
from games.live import fragments
from games.live.fragments import REGIONS, delta, live_board, shared_board
from games.live.viewpoint import viewpoint_for
from games.web import local_boards
from tests.factories import accounts, anon, everyone_here, member, room
from tests.games.webplay import step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fixed_seeds")]


class Socket:
    """What local_boards holds of a game's socket: its viewer (the consumer's `actor`)."""

    def __init__(self, actor):
        self.actor = actor


@pytest.fixture
def pushes(monkeypatch) -> list[dict]:
    """Every new version's push event, as the sockets receive it."""
    sent: list[dict] = []
    real = broadcast.board_changed

    def recording(game_id, version, facts=None, skip=""):
        sent.append({"type": "game.update", "version": version, "skip": skip, **(facts or {})})
        return real(game_id, version, facts, skip)

    monkeypatch.setattr(broadcast, "board_changed", recording)
    return sent


@pytest.fixture
def renders(monkeypatch) -> Counter:
    """Boards worked out (one per viewpoint) by `live_board`'s and `live_boards`' common step."""
    made: Counter = Counter()
    real = fragments._board

    def counted(game, seats, vp, *args, **kwargs):
        made[vp.key] += 1
        return real(game, seats, vp, *args, **kwargs)

    monkeypatch.setattr(fragments, "_board", counted)
    return made


def two_seat_room():
    users = accounts("ann", "ben")
    game = room(users)
    everyone_here(game)
    return game, [member(u) for u in users]


def test_the_acting_process_renders_its_sockets_boards_before_the_push(pushes, renders):
    game, people = two_seat_room()
    sockets = [Socket(p) for p in people] + [Socket(anon("a-watcher"))]
    for socket in sockets:
        local_boards.watch(game.pk, socket)
    try:
        for _ in range(6):
            caches.clear_all()
            renders.clear()
            game = step(game, lambda seat: people[seat.index])
            event = pushes[-1]
            assert event["version"] == game.version
            # Each viewpoint rendered once, by the action's thread, before the push went out.
            assert renders == Counter({"host-0": 1, "seat-1": 1, "spectator": 1})
            renders.clear()
            g, seats = selectors.game_and_seats(game.pk)
            for socket in sockets:
                vp = viewpoint_for(g, seats, socket.actor)
                with CaptureQueriesContext(connection) as queries:
                    board = shared_board(game.pk, vp, event)
                assert board is not None, vp.key  # the socket's board, with no render
                assert not queries.captured_queries
                alone = live_board(g, vp, seats=seats, connected=frozenset(event["here"]))
                assert board.head == alone.head
                for name in REGIONS:
                    assert board.regions[name] == alone.regions[name], (vp.key, name)
    finally:
        for socket in sockets:
            local_boards.forget(game.pk, socket)


def test_a_process_with_no_socket_of_the_game_renders_nothing(pushes, renders):
    game, people = two_seat_room()
    step(game, lambda seat: people[seat.index])
    assert pushes
    assert not renders


def test_a_socket_whose_viewer_changed_finds_no_board_under_its_old_viewpoint(pushes):
    """A viewer's viewpoint is worked out afresh at each version: a socket still holding the old one
    (here: a player's, while the socket's viewer is now a stranger) gets no board, and renders its
    own (the consumer's fallback)."""
    game, people = two_seat_room()
    g, seats = selectors.game_and_seats(game.pk)
    old = viewpoint_for(g, seats, people[1])
    socket = Socket(anon("someone-else"))
    local_boards.watch(game.pk, socket)
    try:
        game = step(game, lambda seat: people[seat.index])
        assert shared_board(game.pk, old, pushes[-1]) is None
        g, seats = selectors.game_and_seats(game.pk)
        assert shared_board(game.pk, viewpoint_for(g, seats, socket.actor), pushes[-1])
    finally:
        local_boards.forget(game.pk, socket)


def test_another_process_renders_once_for_all_its_sockets(pushes, monkeypatch):
    """A push from elsewhere: the first socket renders every viewpoint of the process in one thread,
    the others wait for it; then each takes its board and sends its regions."""
    game, people = two_seat_room()
    game = step(game, lambda seat: people[seat.index])  # no socket here yet: nothing rendered
    event = pushes[-1]
    caches.clear_all()  # as another process sees it
    sockets = [Socket(p) for p in people] + [Socket(anon("a-watcher"))]
    for socket in sockets:
        local_boards.watch(game.pk, socket)
    calls: list[int] = []
    real = local_boards.render_boards

    def counted(*args):
        calls.append(args[1])
        return real(*args)

    monkeypatch.setattr(local_boards, "render_boards", counted)
    g, seats = selectors.game_and_seats(game.pk)
    vps = [viewpoint_for(g, seats, s.actor) for s in sockets]

    async def push_to_every_socket():
        async def one(vp):
            await local_boards.rendered(game.pk, event)
            return shared_board(game.pk, vp, event)

        return await asyncio.gather(*(one(vp) for vp in vps))

    try:
        boards = asyncio.run(push_to_every_socket())
    finally:
        for socket in sockets:
            local_boards.forget(game.pk, socket)
    assert calls == [game.version]
    assert all(board is not None for board in boards)
    frames = [delta(board, game.version - 1, {}, None)[0] for board in boards]
    assert all(f'data-from="{game.version - 1}"' in frame for frame in frames)


def test_a_socket_gone_is_forgotten(pushes, renders):
    """Sockets are held weakly: a consumer dropped without its disconnect leaves nothing rendered."""
    game, people = two_seat_room()
    local_boards.watch(game.pk, Socket(people[0]))  # no reference kept: collected at once
    step(game, lambda seat: people[seat.index])
    assert not renders
    assert local_boards.actors_watching(game.pk) == []


def test_a_posts_answer_is_the_board_the_push_rendered_for_its_viewpoint(
    pushes, renders, client, django_user_model
):
    """The mover's page has a socket in this process: the answer to their POST is the board rendered
    for that socket before the push (no viewpoint worked out twice), the same board their page would
    get whole; with no socket of theirs here, it is rendered for the answer."""
    game, people = two_seat_room()
    sockets = [Socket(p) for p in people] + [Socket(anon("a-watcher"))]
    for socket in sockets:
        local_boards.watch(game.pk, socket)
    try:
        for watched in (True, False):
            if not watched:
                local_boards.forget(game.pk, sockets[0])
                local_boards.forget(game.pk, sockets[1])
            game, seats = selectors.game_and_seats(game.pk)
            state = actions.engine_state(game)
            seat = actions.turn_seat(game, seats, state)
            client.force_login(django_user_model.objects.get(pk=seat.user_id))
            name, data = "roll", {"version": game.version}
            if not (engine.can_roll(state) and not engine.legal_moves(state)):
                m = engine.legal_moves(state)[0]
                name, data = "move", {**data, "colour": m.colour, "index": m.index}
            renders.clear()
            answer = client.post(f"/games/{game.pk}/{name}", data, HTTP_HX_REQUEST="true")
            assert answer.status_code == 200, answer.content.decode()[:300]
            made = Counter(renders)
            after, seats = selectors.game_and_seats(game.pk)
            vp = viewpoint_for(after, seats, people[seat.index])
            expected = live_board(after, vp, seats=seats, connected=frozenset(pushes[-1]["here"]))
            assert answer.content.decode() == expected.whole()
            # Each viewpoint once: the sockets' before the push, the mover's among them then; once
            # the players' sockets are gone, the watcher's, and the mover's for the answer.
            watching = [viewpoint_for(after, seats, s.actor) for s in sockets]
            if not watched:
                watching = [viewpoint_for(after, seats, sockets[2].actor), vp]
            assert made == Counter(v.key for v in watching)
            game = after
    finally:
        for socket in sockets:
            local_boards.forget(game.pk, socket)
