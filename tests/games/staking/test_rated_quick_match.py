"""Rated quick match through the staking services: a press pairs with the closest-rated waiting player
in range (not the longest waiting), out of range it waits, and the sweeper's pass pairs entries as
their ranges widen, closest first: the later entry's stake refunded and its player seated in the
earlier room, one transaction, and that player's waiting screen follows to the game."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from accounts.users.browsers import BrowserAccount
from games import tasks
from games.models import Action, Game
from games.staking import sweeper
from games.staking.quick import do_quick_match
from leaderboard.models import Rating
from tests.games.webplay import fresh, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True


def rated(django_user_model, name: str, value: int, ruleset: str = "twodice"):
    """An account with a settled rating `value` in `ruleset`."""
    user = django_user_model.objects.create_user(name)
    Rating.objects.create(
        user=user, ruleset=ruleset, mu=25 + (value - 1500) / 60, sigma=4, value=value, games=30
    )
    return member(user)


def waited(game: Game, seconds: float, now=None) -> None:
    """The entry was made `seconds` before `now`."""
    now = now or timezone.now()
    Game.objects.filter(pk=game.pk).update(created=now - timedelta(seconds=seconds))


def opponent_of(game: Game) -> int:
    return fresh(game).seats.get(index=1).user_id


def test_a_press_takes_the_closest_in_range_not_the_longest_waiting(django_user_model):
    low, high, presser = (
        rated(django_user_model, "low", 1400),
        rated(django_user_model, "high", 1700),
        rated(django_user_model, "presser", 1680),
    )
    first = do_quick_match(low, "100")
    second = do_quick_match(high, "100")
    assert first.status == second.status == Game.Status.OPEN  # 300 apart: both wait
    waited(first, 20)  # low has waited longest (and its range is ±400 now)
    game = do_quick_match(presser, "100")
    assert game.pk == second.pk and fresh(game).status == Game.Status.PLAYING
    assert opponent_of(game) == presser.user_id
    assert fresh(first).status == Game.Status.OPEN
    assert balance_of(low.user_id) == balance_of(high.user_id) == balance_of(presser.user_id) == 900


def test_a_press_out_of_the_pressers_range_waits_even_beside_someone_waiting_long(
    django_user_model,
):
    long_waiting = do_quick_match(rated(django_user_model, "ann", 1500), "100")
    waited(long_waiting, 25)  # ann's range is ±400, but the newcomer's is ±100
    newcomer = do_quick_match(rated(django_user_model, "bob", 1650), "100")
    assert newcomer.pk != long_waiting.pk and newcomer.status == Game.Status.OPEN
    assert fresh(long_waiting).status == Game.Status.OPEN


def test_the_sweep_pairs_closest_first_once_ranges_overlap_and_merges_the_later_entry(
    django_user_model,
):
    ann, bob, cat = (
        rated(django_user_model, "ann", 1500),
        rated(django_user_model, "bob", 1760),
        rated(django_user_model, "cat", 1640),
    )
    entries = {p.username: do_quick_match(p, "100") for p in (ann, bob, cat)}
    assert all(e.status == Game.Status.OPEN for e in entries.values())  # 120+ apart at the press
    now = timezone.now()
    waited(entries["ann"], 10, now)  # ±300
    waited(entries["bob"], 6, now)  # ±220: ann is 260 away
    waited(entries["cat"], 0.5, now)  # ±110: bob is 120 away, ann 140
    assert sweeper.pair_waiting(now) == 0
    waited(entries["cat"], 2.2, now)  # ±144: both in range
    assert sweeper.pair_waiting(now) == 1
    # cat pairs with bob, the closer (120), though ann waited longest: cat's entry closes.
    game, merged = fresh(entries["bob"]), fresh(entries["cat"])
    assert game.status == Game.Status.PLAYING and opponent_of(game) == cat.user_id
    assert merged.status == Game.Status.ABANDONED
    assert fresh(entries["ann"]).status == Game.Status.OPEN
    assert balance_of(cat.user_id) == 900  # refunded, then staked in bob's game
    kinds = list(
        LedgerTransaction.objects.filter(game=merged).values_list("kind", flat=True).order_by("pk")
    )
    assert len(kinds) == 2  # the stake, then its refund: the merged entry's escrow is closed
    assert LedgerTransaction.objects.filter(game=game).count() == 2  # both stakes in bob's game
    log = Action.objects.filter(game=merged).order_by("seq").last()
    assert "Paired with another player's quick match" in log.text
    # Alone in the queue now, ann stays; a second pass changes nothing.
    assert sweeper.pair_waiting(now) == 0


def test_the_later_players_waiting_screen_follows_to_the_game(django_user_model):
    ann, bob = rated(django_user_model, "ann", 1500), rated(django_user_model, "bob", 1720)
    first, later = do_quick_match(ann, "100"), do_quick_match(bob, "100")
    client = Client()
    client.force_login(django_user_model.objects.get(pk=bob.user_id))
    status = f"/staked/quick/{later.pk}/status"
    waited(later, 3)
    page = client.get(status, HTTP_HX_REQUEST="true").content.decode()
    # The range the page shows is the one of the time it shows (a loaded machine may be slow).
    seconds = int(re.search(r'datetime="PT(\d+)S"', page).group(1))
    reach = min(400, 100 + 20 * seconds)
    assert seconds >= 3
    dash = "\N{EN DASH}"
    assert f'data-testid="quick-range-band">{1720 - reach}{dash}{1720 + reach}<' in page
    assert 'data-testid="quick-rating">1720<' in page
    now = timezone.now()
    waited(first, 5, now), waited(later, 5, now)  # 220 apart, each ±200: not yet
    assert sweeper.pair_waiting(now) == 0
    waited(first, 10), waited(later, 10)  # each ±300
    tasks.sweep_deadlines()  # the beat's sweep runs the pass
    r = client.get(status, HTTP_HX_REQUEST="true")
    assert r.status_code == 204 and r["HX-Redirect"] == f"/games/{first.pk}/"
    assert client.get(f"/staked/quick/{later.pk}")["Location"] == f"/games/{first.pk}/"
    assert client.get(f"/games/{later.pk}/")["Location"] == f"/games/{first.pk}/"  # its old page
    assert opponent_of(first) == bob.user_id


def test_two_accounts_of_one_browser_are_never_paired_by_the_sweep(django_user_model):
    ann, bob = rated(django_user_model, "ann", 1500), rated(django_user_model, "bob", 1510)
    for user_id in (ann.user_id, bob.user_id):
        BrowserAccount.objects.create(browser="b1", user_id=user_id, last_seen=timezone.now())
    first, later = do_quick_match(ann, "100"), do_quick_match(bob, "100")
    assert later.pk != first.pk  # the press refused to pair them
    waited(first, 40), waited(later, 40)  # anyone, for both
    assert sweeper.pair_waiting() == 0
    assert fresh(first).status == fresh(later).status == Game.Status.OPEN


def test_after_30_s_the_waiting_screen_says_anyone(django_user_model):
    ann = rated(django_user_model, "ann", 1500)
    entry = do_quick_match(ann, "100")
    waited(entry, 31)
    client = Client()
    client.force_login(django_user_model.objects.get(pk=ann.user_id))
    page = client.get(f"/staked/quick/{entry.pk}").content.decode()
    assert 'data-testid="quick-range-band">anyone<' in page
    assert "you have waited 30 s" in page
