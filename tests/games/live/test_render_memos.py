"""What the board's renders keep from one version to the next in the process (the log's named
sentences, the accounts each sentence names, each token's markup and button, the strings escaped)
changes nothing a viewer is sent: every board, version after version, is the one a process that
kept nothing renders; and a renamed player's new name reaches the log and the cards at once, without
a new version, escaped like any other."""

from __future__ import annotations

import pytest

from games.core import caches, narration
from games.live import board_pieces, board_region, dice_panel, escaped, fragments, presenter
from games.live.fragments import LiveBoard, live_board, live_boards
from games.live.viewpoint import viewpoint_for
from games.models import Game
from tests.factories import accounts, anon, everyone_here, member, room
from tests.games.webplay import fresh, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fixed_seeds")]


def forget_everything() -> None:
    """The process as it starts: no cache, no memo."""
    caches.clear_all()
    board_region._DRAWN.clear()
    for memo in (
        presenter._named,
        presenter._token_button,
        dice_panel._token_button,
        escaped.escaped,
        narration._referenced,
        board_pieces._token_markup,
        fragments._log_item,
    ):
        memo.cache_clear()


def boards(game: Game, viewers, *, together: bool) -> dict[str, LiveBoard]:
    """Each viewer's board at the game's version, read afresh: all at once as a push renders them
    before it goes (games.web.local_boards), or one by one as a page each."""
    g = Game.objects.get(pk=game.pk)
    seats = list(g.seats.select_related("user"))
    here = frozenset(s.pk for s in seats)
    vps = {vp.key: vp for vp in (viewpoint_for(g, seats, v) for v in viewers)}
    if together:
        return dict(
            zip(vps, live_boards(g, list(vps.values()), seats=seats, connected=here), strict=True)
        )
    return {key: live_board(g, vp, seats=seats, connected=here) for key, vp in vps.items()}


def test_every_board_is_the_one_a_process_that_kept_nothing_renders():
    users = accounts("ann", "ben")
    game = room(users)
    everyone_here(game)
    people = [member(u) for u in users]
    viewers = [*people, anon("a-watcher")]
    for _ in range(40):  # tokens out, captures, a log longer than it shows
        game = step(game, lambda seat: people[seat.index])
        kept = boards(game, viewers, together=True)
        forget_everything()
        assert boards(game, viewers, together=False) == kept, game.version


def test_a_renamed_player_is_named_anew_in_the_log_and_cards_without_a_new_version():
    ann, ben = accounts("ann", "ben")
    game = room([ann, ben])
    everyone_here(game)
    people = {ann.pk: member(ann), ben.pk: member(ben)}
    for _ in range(8):
        game = step(game, lambda seat: people[seat.user_id])
    watcher = [anon("a-watcher")]
    log = boards(game, watcher, together=True)["spectator"].regions["log"]
    assert "ann rolled" in log

    ann.username = "zed"
    ann.save()

    renamed = boards(fresh(game), watcher, together=True)["spectator"].regions["log"]
    assert fresh(game).version == game.version
    assert "zed rolled" in renamed and "ann rolled" not in renamed

    ann.username = "<zed>"
    ann.save()

    board = boards(fresh(game), watcher, together=True)["spectator"]
    assert "&lt;zed&gt; rolled" in board.regions["log"]
    assert '<span class="player-name">&lt;zed&gt;' in board.regions["players"]
    assert "<zed>" not in board.regions["log"] + board.regions["players"]


def test_a_token_is_written_as_its_radius_was_given():
    """A radius of 14 and one of 14.0 are one key to a plain memo; the markup tells them apart."""
    token = {
        "colour": "red", "index": 0, "movable": False, "last": False, "small": False,
        "progress": 3, "cx": 10.0, "cy": 20.0, "label": 1, "where": "3 steps out",
    }  # fmt: skip
    assert 'r="14"' in board_pieces._token({**token, "r": 14})
    assert 'r="14.0"' in board_pieces._token({**token, "r": 14.0})
