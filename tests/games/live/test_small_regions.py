"""The message line and the log built in Python, fair dice and the players' buttons rendered once per
set of what they read (games.live.small_regions): what a player sees is unchanged, and a change of
what a region reads (a new-round vote) shows at once."""

from __future__ import annotations

from collections import Counter

import pytest

from games import actions
from games.core import caches, selectors
from games.live import fragments, small_regions
from games.live.fragments import live_board
from games.live.viewpoint import viewpoint_for
from tests.factories import accounts, anon, everyone_here, member, room
from tests.games.webplay import fresh, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fixed_seeds")]


@pytest.fixture
def templates(monkeypatch) -> Counter:
    rendered: Counter = Counter()
    real = fragments.render_to_string

    def counted(name, *args, **kwargs):
        rendered[name] += 1
        return real(name, *args, **kwargs)

    monkeypatch.setattr(fragments, "render_to_string", counted)
    return rendered


def board(game, actor, notice=""):
    caches.clear_all()  # every region rendered afresh but what small_regions keeps
    g, seats = selectors.game_and_seats(game.pk)
    vp = viewpoint_for(g, seats, actor)
    return live_board(g, vp, seats=seats, connected=frozenset(s.pk for s in seats), notice=notice)


def test_the_message_line_escapes_what_it_shows_and_a_refusal_comes_first():
    users = accounts("ann", "ben")
    game = room(users)
    everyone_here(game)
    shown = board(game, member(users[0]), notice='<b>Not "yet"</b>').regions["message"]
    assert (
        '<strong class="notice" data-testid="notice">&lt;b&gt;Not &quot;yet&quot;&lt;/b&gt;'
        in shown
    )
    assert 'id="game-message" data-testid="message" role="status"' in shown
    assert "<b>" not in shown


def test_the_buttons_render_once_per_what_they_read_and_a_vote_shows_at_once(templates):
    users = accounts("ann", "ben")
    game = room(users)
    everyone_here(game)
    people = [member(u) for u in users]
    small_regions._RENDERED.clear()
    for _ in range(4):
        game = step(game, lambda seat: people[seat.index])
        first = board(game, people[0])
    assert templates["games/live/_controls.html"] == 1  # four versions, the same buttons
    assert templates["games/live/_fair.html"] == 1  # the seeds are set: the same panel
    assert "Waiting for the others" not in first.regions["controls"]
    actions.do_new_round(game.pk, people[0])
    game = fresh(game)
    voted = board(game, people[0]).regions["controls"]
    asked = board(game, people[1]).regions["controls"]
    assert "Waiting for the others" in voted
    assert "Agree to a new round" in asked
    watcher = board(game, anon("a-watcher")).regions["controls"]
    assert "new-round" not in watcher
