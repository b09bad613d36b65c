"""Registering and leaving: the buy-in moves with the seat, the refusals a player reads, one commitment
at a time, and a cancel at every stage giving every buy-in back exactly."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.ledger.adjustments import adjust_coins
from accounts.ledger.errors import NotEnoughCoins, TopUpRefused
from accounts.ledger.grants import claim_top_up, coins_in_escrow
from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from accounts.models import User
from games.core.errors import Conflict, GameError, NotAllowed
from games.models import Game
from games.staking.quick import do_quick_match
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from games.tournaments.checks import tournament_problems
from games.tournaments.models import Tournament, TournamentMatch
from games.tournaments.registration import do_forfeit, do_leave, do_register, open_tournament
from games.tournaments.starting import do_cancel
from tests.factories import member
from tests.games.tournaments.helpers import (
    balances,
    fresh,
    full_tournament,
    live_matches,
    lose,
    play_out,
    players,
    start_now,
)
from tests.ledger_checks import assert_ledger_ok, ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_buy_in_moves_with_the_seat_and_comes_back_on_leaving():
    (ann,) = players(1)
    before = balances([ann])
    tournament = open_tournament(4, 100)
    do_register(ann, tournament.pk)
    do_register(ann, tournament.pk)  # a repeated click: nothing more moves
    assert balances([ann])[ann.user_id] == before[ann.user_id] - 100
    assert fresh(tournament).pool.balance == 100
    do_leave(ann, tournament.pk)
    assert balances([ann]) == before
    assert not tournament.entries.exists()


def test_a_buy_in_shows_as_held_until_the_tournament_pays_or_is_cancelled(client):
    """The wallet's "held" line (and the daily top-up, which counts held coins as the player's)
    includes buy-ins, as it does the stakes of staked rooms."""
    people = players(4)
    ann = people[0]
    other = open_tournament(8, 50)
    do_register(ann, other.pk)
    assert coins_in_escrow(ann.user_id) == 50
    do_leave(ann, other.pk)  # the buy-in comes back; the tournament stays open
    assert coins_in_escrow(ann.user_id) == 0
    tournament = full_tournament(people, buy_in=100)
    client.force_login(User.objects.get(pk=ann.user_id))
    page = client.get(reverse("wallet")).content.decode()
    assert re.search(r'data-testid="wallet-escrow"><strong>100</strong>', page)
    assert all(coins_in_escrow(actor.user_id) == 100 for actor in people)
    adjust_coins(ann.user_id, 10 - balance_of(ann.user_id), "spent")  # 10 in the wallet, 100 held
    with pytest.raises(TopUpRefused, match="you have 110"):
        claim_top_up(ann.user_id)
    play_out(tournament, people)
    assert all(coins_in_escrow(actor.user_id) == 0 for actor in people)
    page = client.get(reverse("wallet")).content.decode()
    assert re.search(r'data-testid="wallet-escrow"><strong>0</strong>', page)
    cancelled = full_tournament(players(4, prefix="q"), buy_in=100, start=False)
    do_cancel(cancelled.pk, "no players")
    assert coins_in_escrow(User.objects.get(username="q0").pk) == 0


def test_filling_up_starts_the_countdown_and_a_leave_stops_it(django_capture_on_commit_callbacks):
    people = players(4)
    tournament = open_tournament(4, 100)
    for actor in people[:3]:
        do_register(actor, tournament.pk)
    assert fresh(tournament).starts_at is None
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        do_register(people[3], tournament.pk)
    assert fresh(tournament).starts_at is not None
    assert len(callbacks) >= 3  # the start task, the notices, the bracket's push
    do_leave(people[0], tournament.pk)
    assert fresh(tournament).starts_at is None
    assert not start_now(tournament)  # not full: the countdown's task does nothing
    assert fresh(tournament).status == Tournament.Status.OPEN


def test_refusals_full_started_guest_short_of_coins_and_new_accounts(settings):
    people = players(5)
    tournament = open_tournament(4, 100)
    for actor in people[:4]:
        do_register(actor, tournament.pk)
    with pytest.raises(Conflict, match="full"):
        do_register(people[4], tournament.pk)
    start_now(tournament)
    with pytest.raises(Conflict, match="started"):
        do_register(people[4], tournament.pk)
    with pytest.raises(Conflict, match="started before you left"):
        do_leave(people[0], tournament.pk)
    from games.core.actors import Actor

    with pytest.raises(NotAllowed, match="Sign up or log in"):
        do_register(Actor(None, "guest"), open_tournament(4, 100).pk)
    newbie = member(User.objects.create_user("newbie"))
    with pytest.raises(GameError, match="New accounts"):
        do_register(newbie, open_tournament(4, 250).pk)
    settings.LUDOPAT_NEW_PLAYER_MAX = 10_000  # past the cap: the wallet is what refuses now
    settings.LUDOPAT_STAKE_TIERS = (100, 5000)
    rich = open_tournament(4, 5000)
    with pytest.raises(NotEnoughCoins):
        do_register(people[4], rich.pk)
    assert not rich.entries.exists()
    with pytest.raises(GameError):
        open_tournament(5, 100)
    with pytest.raises(GameError):
        open_tournament(4, 123)


def test_one_commitment_at_a_time_both_ways():
    ann, ben = players(2)
    room = do_create_staked_room(ann, "twodice", 100)
    tournament = open_tournament(4, 100)
    with pytest.raises(Conflict, match="open staked room"):
        do_register(ann, tournament.pk)
    do_register(ben, tournament.pk)
    with pytest.raises(Conflict, match="tournament"):
        do_create_staked_room(ben, "twodice", 100)
    with pytest.raises(Conflict, match="tournament"):
        do_quick_match(ben, 100)
    with pytest.raises(Conflict, match="tournament"):
        do_join_staked_room(ben, room.pk)
    with pytest.raises(Conflict, match="tournament"):
        do_register(ben, open_tournament(4, 100).pk)
    assert Game.objects.get(pk=room.pk).status == Game.Status.OPEN


def test_the_same_browser_rule():
    from accounts.users import browsers

    ann, ben = players(2)
    tournament = open_tournament(4, 100)
    do_register(ann, tournament.pk)
    for actor in (ann, ben):
        browsers.record("same-browser", actor.user_id)
    with pytest.raises(NotAllowed, match="same browser"):
        do_register(ben, tournament.pk)


@pytest.mark.parametrize("stage", ["registering", "full", "first round", "final"])
def test_a_cancel_at_every_stage_refunds_every_buy_in_exactly(stage):
    people = players(4)
    before = balances(people)
    tournament = open_tournament(4, 100)
    for actor in people[: 2 if stage == "registering" else 4]:
        do_register(actor, tournament.pk)
    if stage in ("first round", "final"):
        start_now(tournament)
    if stage == "final":
        for match in live_matches(tournament):
            lose(match, people)
    rooms = [m.game_id for m in live_matches(tournament)]
    do_cancel(tournament.pk, "a test")
    assert balances(people) == before
    tournament = fresh(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.pool.balance == 0
    assert Game.objects.filter(pk__in=rooms, status=Game.Status.PLAYING).count() == 0
    assert (
        not TournamentMatch.objects.filter(tournament=tournament, round=2)
        .exclude(winner=None)
        .exists()
    )
    with pytest.raises(Conflict, match="over already"):
        do_cancel(tournament.pk, "again")
    assert not tournament_problems()


def test_a_finished_tournament_cannot_be_cancelled():
    people = players(4)
    tournament = full_tournament(people)
    for _ in range(2):
        for match in live_matches(tournament):
            lose(match, people)
    with pytest.raises(Conflict):
        do_cancel(tournament.pk, "too late")
    assert LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.PRIZE).count() == 1


def test_forfeiting_resigns_the_match_and_walks_over_the_next():
    people = players(4)
    tournament = full_tournament(people)
    semi, other = live_matches(tournament)
    quitter = next(a for a in people if a.user_id == semi.second.user_id)
    do_forfeit(quitter, tournament.pk)  # their semi-final is resigned: the first player wins it
    semi.refresh_from_db()
    assert semi.winner_id == semi.first_id and semi.game.status == Game.Status.FINISHED
    with pytest.raises(Conflict, match="out of this tournament"):
        do_forfeit(quitter, tournament.pk)
    # The other semi's winner forfeits between rounds: the final is theirs to lose without play.
    lose(other, people)  # its second player wins
    waiting_finalist = next(a for a in people if a.user_id == other.second.user_id)
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final.game.status == Game.Status.PLAYING
    do_forfeit(waiting_finalist, tournament.pk)
    tournament = fresh(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    final.refresh_from_db()
    assert final.winner_id == semi.first_id


def test_a_ban_forfeits_the_current_match_and_every_later_one(django_user_model):
    from accounts.moderation.bans import do_ban
    from tests.accounts.moderation.conftest import staff

    moderator = staff(django_user_model, "mod", "Moderator")
    people = players(4)
    before = balances(people)
    tournament = full_tournament(people)
    semi, other = live_matches(tournament)
    lose(semi, people)
    banned = User.objects.get(pk=semi.second.user_id)  # the semi's winner, waiting for the final
    do_ban(moderator, banned, reason="Cheating")
    lose(other, people)
    tournament = fresh(tournament)
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final.walkover and final.winner.user_id == other.second.user_id
    assert tournament.status == Tournament.Status.FINISHED
    # Their buy-in stayed in the pot; the 2nd place's share went to the winner.
    after = balances(people)
    assert after[banned.pk] == before[banned.pk] - 100
    assert after[other.second.user_id] == before[other.second.user_id] - 100 + 360
    assert_ledger_ok()


def test_a_ban_during_a_match_resigns_it(django_user_model):
    from accounts.moderation.bans import do_ban
    from tests.accounts.moderation.conftest import staff

    moderator = staff(django_user_model, "mod", "Moderator")
    people = players(4)
    tournament = full_tournament(people)
    semi = live_matches(tournament)[0]
    do_ban(moderator, User.objects.get(pk=semi.first.user_id), reason="Cheating")
    semi.refresh_from_db()
    assert semi.winner_id == semi.second_id


def test_a_scheduled_tournament_starts_at_its_time_or_is_cancelled_if_not_full():
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments.sweeper import start_due

    people = players(6)
    before = balances(people)
    soon = timezone.now() + timedelta(hours=1)
    full = open_tournament(4, 100, scheduled_for=soon)
    short = open_tournament(4, 100, scheduled_for=soon)
    for actor in people[:4]:
        do_register(actor, full.pk)
    for actor in people[4:]:
        do_register(actor, short.pk)
    assert fresh(full).starts_at == soon  # full, but it waits for its time
    assert start_due() == 0
    Tournament.objects.update(starts_at=timezone.now() - timedelta(seconds=1))
    assert start_due() == 1  # beat's sweep
    assert fresh(full).status == Tournament.Status.PLAYING
    short = fresh(short)
    assert short.status == Tournament.Status.CANCELLED and "not full" in short.cancel_reason
    after = balances(people)
    assert all(after[a.user_id] == before[a.user_id] for a in people[4:])
