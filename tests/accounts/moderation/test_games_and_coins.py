"""A ban takes the player out of their games (in play, staked or not: resigned, the opponent paid once;
open rooms: closed and refunded); a void refunds both stakes; coin adjustments are
ledger transactions that never take a wallet below zero. Only the Admin group voids and adjusts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from accounts.moderation import bans, coins
from accounts.moderation.audit import AuditLog
from accounts.moderation.errors import ModerationError
from accounts.moderation.voids import do_void
from games.core.narration import shown
from games.models import Game
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from tests.games.webplay import fresh, friends_room, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def veterans(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0


def veteran(django_user_model, name: str):
    user = django_user_model.objects.create_user(name)
    django_user_model.objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timedelta(days=2)
    )
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def cheat(django_user_model):
    return veteran(django_user_model, "cheat")


@pytest.fixture
def rival(django_user_model):
    return veteran(django_user_model, "rival")


def staked_game(host, guest, stake=100) -> Game:
    game = do_create_staked_room(member(host), "twodice", stake)
    do_join_staked_room(member(guest), game.pk)
    return fresh(game)


def test_a_ban_resigns_staked_games_and_refunds_open_rooms(cheat, rival, moderator):
    # Two commitments at once, as the doors that didn't ask left some before every door asked
    # (staking.commitments refuses the second now): the ban gives up both.
    waiting = do_create_staked_room(member(cheat), "twodice", 200)
    Game.objects.filter(pk=waiting.pk).update(status=Game.Status.FINISHED)
    playing = staked_game(rival, cheat)
    Game.objects.filter(pk=waiting.pk).update(status=Game.Status.OPEN)
    assert balance_of(cheat.pk) == 700
    bans.do_ban(moderator, cheat, reason="Collusion")
    playing, waiting = fresh(playing), fresh(waiting)
    assert playing.status == Game.Status.FINISHED and playing.result_places == [0, 1]
    names = {cheat.pk: "cheat", rival.pk: "rival"}  # the message line names accounts by reference
    assert "cheat resigned. rival wins!" in shown(playing.message, names)
    assert LedgerTransaction.objects.filter(game=playing, kind="payout").count() == 1
    assert LedgerTransaction.objects.filter(game=waiting, kind="refund").count() == 1
    assert waiting.status == Game.Status.ABANDONED
    assert balance_of(rival.pk) == 1080  # the pot less the house's cut, once
    assert balance_of(cheat.pk) == 900  # lost the staked game, got the open room's stake back


def test_a_ban_resigns_unstaked_games_too(cheat, rival, moderator):
    game = friends_room(member(rival), [member(cheat)])
    bans.do_ban(moderator, cheat, reason="Abuse")
    game = fresh(game)
    assert game.status == Game.Status.FINISHED and game.result_places == [0, 1]
    seat = game.seats.get(user=cheat)
    assert seat.bot_controlled and seat.resigned
    assert "cheat resigned. rival wins!" in shown(
        game.message, {cheat.pk: "cheat", rival.pk: "rival"}
    )


def test_a_void_refunds_exactly_both_stakes_and_counts_for_nobody(cheat, rival, site_admin):
    game = staked_game(rival, cheat, 250)
    assert (balance_of(rival.pk), balance_of(cheat.pk)) == (750, 750)
    client = logged_in(site_admin)
    answer = client.post(
        reverse("admin:games_game_changelist"),
        {"action": "void", "_selected_action": [game.pk], "apply": "1", "reason": "Bug in dice"},
        follow=True,
    )
    assert b"round voided." in answer.content
    game = fresh(game)
    assert game.status == Game.Status.ABANDONED and game.result_places == []
    assert game.message == "A moderator voided this round: Bug in dice"
    assert (balance_of(rival.pk), balance_of(cheat.pk)) == (1000, 1000)
    assert LedgerTransaction.objects.filter(game=game, kind="refund").count() == 1
    assert not LedgerTransaction.objects.filter(game=game, kind="payout").exists()
    entry = AuditLog.objects.get(action="void")
    assert (entry.moderator, entry.game_id, entry.reason) == (site_admin, game.pk, "Bug in dice")
    with pytest.raises(ModerationError, match="in play"):
        do_void(site_admin, game.pk, reason="again")


def test_a_moderator_can_neither_void_nor_adjust_coins(cheat, rival, moderator):
    game = staked_game(rival, cheat)
    client = logged_in(moderator)
    games = client.get(reverse("admin:games_game_changelist")).content.decode()
    users = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert 'value="void"' not in games and 'value="adjust_coins"' not in users
    assert 'value="ban"' in users
    client.post(
        reverse("admin:games_game_changelist"),
        {"action": "void", "_selected_action": [game.pk], "apply": "1", "reason": "x"},
    )
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "adjust_coins", "_selected_action": [cheat.pk], "apply": "1",
         "reason": "x", "amount": "500"},
    )  # fmt: skip
    assert fresh(game).status == Game.Status.PLAYING and balance_of(cheat.pk) == 900
    with pytest.raises(ModerationError, match="permission"):
        do_void(moderator, game.pk, reason="x")
    with pytest.raises(ModerationError, match="permission"):
        coins.do_adjust_coins(moderator, cheat, amount=500, reason="x")
    assert not AuditLog.objects.exists()


def test_coin_adjustments_are_audited_ledger_transactions_never_below_zero(cheat, site_admin):
    client = logged_in(site_admin)
    url = reverse("admin:accounts_user_changelist")
    form = {"action": "adjust_coins", "_selected_action": [cheat.pk], "apply": "1"}
    client.post(url, {**form, "amount": "-300", "reason": "Refund of a disputed game"})
    assert balance_of(cheat.pk) == 700
    answer = client.post(url, {**form, "amount": "-701", "reason": "Too much"}, follow=True)
    assert b"can&#x27;t be taken" in answer.content
    assert balance_of(cheat.pk) == 700
    assert LedgerTransaction.objects.filter(kind="adjustment").count() == 1
    entry = AuditLog.objects.get(action="adjust_coins")
    assert (entry.before, entry.after) == ({"coins": 1000}, {"coins": 700, "amount": -300})
    page = client.get(reverse("admin:accounts_user_change", args=[cheat.pk])).content.decode()
    assert "700" in page and "ledger" in page
