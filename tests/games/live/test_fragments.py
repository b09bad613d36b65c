"""The live board's regions and the process's memory of them: one per game, region and variant of the
viewpoint, never one per version, and never an old version served."""

from __future__ import annotations

import pytest

from games.core import caches
from games.live.fragments import REGIONS, render_live
from games.live.viewpoint import viewpoint_for
from games.models import Game, Seat
from tests.games.webplay import SEED, anon, fresh, local_game, step

# Committed for real: the process's caches keep only what was committed (games.core.caches).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fixed_seeds(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


def fragment_keys(game: Game) -> list[str]:
    return [key for key in caches.FRAGMENTS.list_keys() if key.startswith(f"live:{game.pk}:")]


def views_of(game: Game, owner) -> list:
    game = fresh(game)
    seats = list(game.seats.select_related("user").order_by("index"))
    return [
        (game, seats, viewpoint_for(game, seats, owner)),
        (game, seats, viewpoint_for(game, seats, anon("a-stranger"))),
    ]


@pytest.mark.slow  # three hundred moves rendered: make test, not test-fast
def test_three_hundred_moves_leave_one_fragment_per_viewpoint():
    owner = anon()
    game = local_game(owner, names=("Ann", "Ben", "Cy", "Di"))
    for _ in range(300):
        for g, seats, vp in views_of(game, owner):
            render_live(g, vp, seats=seats)
        game = step(game, lambda seat: owner)
        if game.status != Game.Status.PLAYING:
            break
    assert fresh(game).version >= 250  # hundreds of versions were rendered, by two viewpoints
    keys = fragment_keys(game)
    # The owner's board and the spectators': each region (and the opening tag) at most once per
    # viewpoint, and the variants each viewpoint's last board was made of.
    assert len(keys) <= 2 * (len(REGIONS) + 2), keys


def test_a_cached_fragment_is_reused_for_its_version_and_never_for_a_later_one(
    django_assert_num_queries,
):
    owner = anon()
    game = local_game(owner)
    [(g, seats, vp), _] = views_of(game, owner)
    first = render_live(g, vp, seats=seats)
    kept = len(fragment_keys(game))
    with django_assert_num_queries(0):  # another connection showing the same version
        assert render_live(g, vp, seats=seats) == first
    game = step(game, lambda seat: owner)
    [(g, seats, vp), _] = views_of(game, owner)
    later = render_live(g, vp, seats=seats)
    assert f'data-version="{g.version}"' in later and later != first
    # Each region shown, the opening tag and the viewpoint's index once; fair dice twice, the
    # players' client-seed forms gone with the first roll.
    assert len(fragment_keys(game)) == kept + 1 <= len(REGIONS) + 3


def test_after_a_resignation_the_cards_and_the_result_read_right_for_each_viewer(
    redis_client, django_user_model
):
    from games import actions
    from tests.games.webplay import friends_room, member

    alice = member(django_user_model.objects.create_user("alice"))
    bob = member(django_user_model.objects.create_user("bob"))
    game = friends_room(alice, [bob])
    actions.do_resign(game.pk, bob)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    seats = list(game.seats.select_related("user").order_by("index"))
    html = render_live(game, viewpoint_for(game, seats, alice), seats=seats)
    card = html.split('data-testid="player-1"', 1)[1].split("</li>", 1)[0]
    assert "resigned" in card and "computer plays" not in card
    assert next(s for s in seats if s.index == 1).kind == Seat.Kind.HUMAN
    # The result reads naturally for each viewer.
    assert "You win!" in html
    bobs = render_live(game, viewpoint_for(game, seats, bob), seats=seats)
    assert "alice wins!" in bobs and "You win!" not in bobs
