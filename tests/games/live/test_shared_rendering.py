"""What a push renders for the pages of one version: each region once per what it reads of its viewer,
not once per viewer. At one version of a four-seat room, the four players' and a spectator's boards
render the opening tag and the dice panel once per role (the one to play, the other players, the
watcher), each player's card twice (as everyone sees it, and as its own player does), and the context
the regions share once; and every viewer's board is, region for region, the one a render for that viewer
alone gives (nothing of one viewer's leaks into another's)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core import caches, selectors
from games.live import fragments
from games.live.fragments import REGIONS, live_board
from games.live.viewpoint import viewpoint_for
from games.models import Game
from tests.factories import accounts, anon, everyone_here, member, room, timed_room
from tests.games.webplay import step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fixed_seeds")]


@pytest.fixture
def made(monkeypatch) -> Counter:
    """How many times each piece was made meanwhile: a template by name, a card by seat, the others by
    their builder's name, the shared context."""
    made: Counter = Counter()

    def counting(name, builder, key=lambda *a: None):
        def counted(*args, **kwargs):
            made[key(*args) or name] += 1
            return builder(*args, **kwargs)

        monkeypatch.setattr(fragments, name, counted)

    counting("head_tag", fragments.head_tag)
    counting("dice_panel", fragments.dice_panel)
    counting("player_card", fragments.player_card, lambda s, c: f"card-{s['index']}")
    counting("shared_context", fragments.shared_context)
    counting("render_to_string", fragments.render_to_string, lambda name, *a: name)
    counting("kept_region", fragments.kept_region, lambda name, *a: f"kept-{name}")
    return made


def boards_of(game: Game, viewers) -> dict[str, tuple[str, dict[str, str]]]:
    """Each viewer's board at the game's version, rendered one after another in this process, as the
    sockets of one process do for a push (each reading the game at that version, with the presence
    the push read: every seat here)."""
    boards = {}
    for viewer in viewers:
        g, seats = selectors.game_and_seats_at(game.pk, game.version)
        vp = viewpoint_for(g, seats, viewer)
        board = live_board(g, vp, seats=seats, connected=frozenset(s.pk for s in seats))
        boards[vp.key] = (board.head, dict(board.regions))
    return boards


def four_seat_room():
    users = accounts("ann", "ben", "cy", "di")
    game = room(users)
    everyone_here(game)
    people = [member(u) for u in users]
    for _ in range(7):  # a few actions in: dice on the table, tokens out
        game = step(game, lambda seat: people[seat.index])
    return game, people


def test_a_push_to_four_seats_renders_each_region_once_per_role_and_each_card_twice(made):
    game, people = four_seat_room()
    caches.clear_all()
    made.clear()
    boards = boards_of(game, [*people, anon("a-watcher")])
    assert len(boards) == 5
    assert made["shared_context"] == 1
    assert made["head_tag"] == 3  # the one to play, the other players, the watcher
    assert made["dice_panel"] == 3
    assert all(made[f"card-{i}"] == 2 for i in range(4)), made
    assert made["kept-controls"] == 1  # the players' buttons: the same question for all
    # The three players not to play got one and the same dice panel and opening tag.
    waiting = [b for key, b in boards.items() if key != "spectator" and "is-my-turn" not in b[0]]
    assert len(waiting) == 3
    assert len({b[0] for b in waiting}) == 1
    assert len({b[1]["dice"] for b in waiting}) == 1


def test_every_viewers_shared_board_is_the_board_rendered_for_them_alone():
    game, people = four_seat_room()
    viewers = [*people, anon("a-watcher")]
    for _ in range(12):
        caches.clear_all()
        together = boards_of(game, viewers)
        for viewer in viewers:
            caches.clear_all()
            [(key, alone)] = boards_of(game, [viewer]).items()
            assert together[key][0] == alone[0], key
            for name in REGIONS:
                assert together[key][1][name] == alone[1][name], (key, name)
        # Each one's own card says so, and nobody else's does.
        for seat in range(len(people)):
            key = next(k for k in together if k.endswith(f"-{seat}"))
            cards = together[key][1]["players"].split("<li ")[1:]
            assert ["(you)" in card for card in cards] == [i == seat for i in range(len(people))]
        assert "(you)" not in together["spectator"][1]["players"]
        game = step(game, lambda seat: people[seat.index])


def test_in_a_timed_room_each_players_pause_button_is_their_own():
    host, guest = (member(u) for u in accounts("hana", "gus"))
    game = timed_room(host, guest, pauses=2)
    actions_left = {}
    for viewer in (host, guest):
        caches.clear_all()
        g, seats = selectors.game_and_seats(game.pk)
        board = live_board(g, viewpoint_for(g, seats, viewer), seats=seats)
        actions_left[viewer.user_id] = board.regions["clock"]
    g, seats = selectors.game_and_seats(game.pk)
    together = {
        viewer.user_id: live_board(g, viewpoint_for(g, seats, viewer), seats=seats).regions["clock"]
        for viewer in (host, guest)
    }
    assert together == actions_left
    assert all("Pause (2 left)" in html for html in together.values())
