"""One commitment for coins at a time, from every door (docs/tournaments.md, games/staking/commitments.py).

A player holds at most one thing played for coins: an open staked room (a rematch offer is one), a
quick-match entry, a staked game in play, or a tournament registered or in play. Each door below makes
one of them (a staked challenge's accept makes a staked game in play); for every ordered pair of doors (A, then B) the player goes through A, is refused at B with
a sentence naming what A made, and once A is released (cancelled, finished, left) goes through B.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import actions
from games.challenges.answers import do_accept
from games.challenges.issuing import do_challenge
from games.challenges.rules import terms_for
from games.core.errors import Conflict
from games.models import Game
from games.staking.quick import do_quick_match, pair_entries
from games.staking.rematch import do_offer_rematch
from games.staking.rooms import do_cancel_staked_room, do_create_staked_room, do_join_staked_room
from games.tournaments.models import Tournament
from games.tournaments.registration import do_leave, do_register, open_tournament
from leaderboard.models import Rating
from tests.factories import member, seasoned_account
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_NEW_PLAYER_MAX = 1000  # the stakes here are above a new account's cap


_names = itertools.count()


def someone() -> Any:
    return member(seasoned_account(f"other{next(_names)}"))


def playing(game: Game) -> Game:
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.PLAYING and game.stake
    return game


@dataclass
class Door:
    """A way into a commitment: `before` is the player's history the door needs (a finished staked
    game to offer a rematch from), made before A; `enter` goes through it (and may be tried twice:
    what it sets up for others is kept in `ctx`); `release` ends what it made; `names`: a refusal
    caused by what it made says so."""

    name: str
    names: str
    enter: Callable[[Any, dict], Any]
    release: Callable[[Any, Any], object]
    before: Callable[[Any, dict], None] = lambda player, ctx: None
    aside: Callable[[dict], Any] = lambda ctx: nullcontext()


def _resign(player, game) -> None:
    actions.do_resign(game.pk, player)


def _cancel(player, game) -> None:
    do_cancel_staked_room(player, game.pk)


# --- staked rooms


def _open_room(player, ctx):
    return do_create_staked_room(player, "twodice", 60)


def _join_room(player, ctx):
    if "room" not in ctx:
        ctx["room"] = do_create_staked_room(someone(), "twodice", 70)
    return playing(do_join_staked_room(player, ctx["room"].pk))


# --- quick match


def _quick_wait(player, ctx):
    game = do_quick_match(player, "50")
    assert game.status == Game.Status.OPEN and game.owner_id == player.user_id
    return game


def _quick_pair(player, ctx):
    if "entry" not in ctx:
        ctx["entry"] = do_quick_match(someone(), "100")
    _rated_alike(ctx["entry"].owner_id, player.user_id)
    return playing(do_quick_match(player, "100"))


def _rated_alike(waiting: int, player: int) -> None:
    """The waiting player within the presser's range at the press (the staked games the player
    played before moved their rating)."""
    Rating.objects.filter(user_id=waiting).delete()
    for row in Rating.objects.filter(user_id=player):
        row.pk, row.user_id = None, waiting
        row.save()


def _sweeper_pair(player, ctx):
    """The sweeper's pass pairs another player's waiting entry with the player's (which merges)."""
    earlier = do_create_staked_room(someone(), "twodice", 250, quick=True)
    mine = do_create_staked_room(player, "twodice", 250, quick=True)
    return playing(pair_entries(earlier.pk, mine.pk))


def _entry_from_before(player, ctx) -> None:
    ctx["mine"] = do_create_staked_room(player, "twodice", 250, quick=True)


@contextmanager
def _entry_set_aside(ctx) -> Iterator[None]:
    """The player's entry out of sight while A is made, as today's doors that never asked about it
    left such entries behind: the sweeper must not pair it while A holds."""
    mine = ctx["mine"]
    Game.objects.filter(pk=mine.pk).update(status=Game.Status.FINISHED)
    yield
    Game.objects.filter(pk=mine.pk).update(status=Game.Status.OPEN)


def _sweeper_pairs_the_entry(player, ctx):
    """B: the sweeper pairs the player's waiting entry (the earlier one, whose game starts)."""
    if "later" not in ctx:
        ctx["later"] = do_create_staked_room(someone(), "twodice", 250, quick=True)
    return playing(pair_entries(ctx["mine"].pk, ctx["later"].pk))


# --- rematches


def _finished_with(player, ctx) -> None:
    other = someone()
    game = do_create_staked_room(other, "twodice", 80)
    do_join_staked_room(player, game.pk)
    actions.do_resign(game.pk, other)
    ctx["old"], ctx["other"] = game, other


def _offer(player, ctx):
    return do_offer_rematch(player, ctx["old"].pk)


def _accept(player, ctx):
    if "offer" not in ctx:
        ctx["offer"] = do_offer_rematch(ctx["other"], ctx["old"].pk)
    return playing(do_join_staked_room(player, ctx["offer"].pk))


# --- challenges


def _accept_challenge(player, ctx):
    """Another player's staked challenge, accepted by the player (both wallets checked at the accept)."""
    if "challenge" not in ctx:
        other = User.objects.get(pk=someone().user_id)
        terms = terms_for("twodice", stake="90")
        ctx["challenge"] = do_challenge(member(other), _name(player), terms)
    return playing(do_accept(player, ctx["challenge"].pk))


def _name(player) -> str:
    return User.objects.get(pk=player.user_id).username


# --- tournaments


def _open_tournament(player, ctx):
    """The lobby's "Open a tournament" (its view: the host is registered in it)."""
    browser = Client()
    browser.force_login(User.objects.get(pk=player.user_id))
    response = browser.post(reverse("tournament_open"), {"size": 4, "buy_in": 100})
    opened = re.fullmatch(r"/tournaments/(\d+)/", response.get("Location", ""))
    if opened is None:  # refused: the lobby again, saying why
        refusals = [str(m) for m in get_messages(response.wsgi_request)]
        raise Conflict(" ".join(refusals) or f"no tournament opened ({response.status_code})")
    tournament = Tournament.objects.get(pk=opened[1])
    assert tournament.entries.filter(user_id=player.user_id).exists()
    return tournament


def _register(player, ctx):
    if "tournament" not in ctx:
        ctx["tournament"] = open_tournament(4, 100)
    do_register(player, ctx["tournament"].pk)
    return ctx["tournament"]


def _leave(player, tournament) -> None:
    do_leave(player, tournament.pk)


IN_PLAY = r"staked game"
DOORS = {
    door.name: door
    for door in [
        Door("open room", r"open staked room", _open_room, _cancel),
        Door("join room", IN_PLAY, _join_room, _resign),
        Door("quick press, waits", r"quick match", _quick_wait, _cancel),
        Door("quick press, pairs at once", IN_PLAY, _quick_pair, _resign),
        Door("sweeper pairs", IN_PLAY, _sweeper_pair, _resign),
        Door("rematch offer", r"rematch", _offer, _cancel, before=_finished_with),
        Door("rematch accept", IN_PLAY, _accept, _resign, before=_finished_with),
        Door("challenge accept", IN_PLAY, _accept_challenge, _resign),
        Door("tournament open", r"tournament #\d+", _open_tournament, _leave),
        Door("tournament register", r"tournament #\d+", _register, _leave),
    ]
}
# As B, the sweeper meets an entry the player made before A (the only way it could hold one with A).
AS_SECOND = {
    **DOORS,
    "sweeper pairs": Door(
        "sweeper pairs",
        IN_PLAY,
        _sweeper_pairs_the_entry,
        _resign,
        before=_entry_from_before,
        aside=_entry_set_aside,
    ),
}

PAIRS = [
    pytest.param(first, second, id=f"{first} | {second}")
    for first, second in itertools.product(DOORS, DOORS)
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_a_second_commitment_is_refused_naming_the_first_until_it_is_released(first, second):
    player = member(seasoned_account("player"))
    a, b = DOORS[first], AS_SECOND[second]
    a_ctx: dict = {}
    b_ctx: dict = {}
    a.before(player, a_ctx)
    b.before(player, b_ctx)
    with b.aside(b_ctx):
        made = a.enter(player, a_ctx)

    with pytest.raises(Conflict) as refused:
        b.enter(player, b_ctx)
    assert re.search(a.names, str(refused.value)), str(refused.value)

    a.release(player, made)
    b.enter(player, b_ctx)


def test_a_player_waiting_at_one_stake_is_not_paired_at_another():
    ann, ben, cat = (member(seasoned_account(name)) for name in ("ann", "ben", "cat"))
    waiting = do_quick_match(ann, "50")
    do_quick_match(ben, "100")
    with pytest.raises(Conflict, match="quick match at 50"):
        do_quick_match(ann, "100")  # Ben waits there: a press that would pair at once
    game = do_quick_match(cat, "50")
    assert game.pk == waiting.pk and playing(game)
    assert Game.objects.filter(seats__user_id=ann.user_id, status="playing").count() == 1
