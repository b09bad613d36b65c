"""The same rules for every moderator action: nobody acts on their own account, only a
superuser acts on a staff account, and every action has a reason. Coins, unmute and unban included."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.ledger.history import balance_of
from accounts.moderation import bans, coins, mutes, reports
from accounts.moderation.audit import AuditLog
from accounts.moderation.errors import ModerationError
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

from .conftest import logged_in

pytestmark = pytest.mark.django_db

USERS = reverse("admin:accounts_user_changelist")


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("root", password="a-long-test-password")


def adjust(client, user, amount: int, reason: str = "Goodwill"):
    return client.post(
        USERS,
        {"action": "adjust_coins", "_selected_action": [user.pk], "apply": "1",
         "amount": str(amount), "reason": reason},
        follow=True,
    )  # fmt: skip


def test_an_admin_cant_grant_coins_to_their_own_or_another_staff_wallet(
    site_admin, moderator, player, superuser
):
    client = logged_in(site_admin)
    assert b"own account" in adjust(client, site_admin, 5000).content
    assert b"staff account" in adjust(client, moderator, 5000).content
    assert balance_of(site_admin.pk) == balance_of(moderator.pk) == 1000
    adjust(client, player, 50)  # a player's wallet: fine
    assert balance_of(player.pk) == 1050
    adjust(logged_in(superuser), moderator, 50)  # a superuser may correct a staff wallet
    assert balance_of(moderator.pk) == 1050
    with pytest.raises(ModerationError, match="own account"):
        coins.do_adjust_coins(site_admin, site_admin, amount=5000, reason="Bonus")
    assert [e.user for e in AuditLog.objects.filter(action="adjust_coins").order_by("pk")] == [
        player,
        moderator,
    ]


def test_a_muted_moderator_cant_unmute_themselves(moderator, site_admin, superuser):
    until = timezone.now() + timedelta(hours=1)
    mutes.do_mute(superuser, moderator, until=until, reason="Heated argument")
    with pytest.raises(ModerationError, match="own account"):
        mutes.do_unmute(moderator, moderator, reason="I'm calm now")
    with pytest.raises(ModerationError, match="staff account"):
        mutes.do_unmute(site_admin, moderator, reason="A colleague")
    logged_in(moderator).post(
        USERS,
        {"action": "unmute", "_selected_action": [moderator.pk], "apply": "1", "reason": "calm"},
    )
    moderator.refresh_from_db()
    assert moderator.is_muted
    mutes.do_unmute(superuser, moderator, reason="Calm again")
    moderator.refresh_from_db()
    assert not moderator.is_muted


def test_only_a_superuser_lifts_a_staff_ban(moderator, site_admin, superuser):
    bans.do_ban(superuser, site_admin, reason="Abuse of the coin tools")
    with pytest.raises(ModerationError, match="staff account"):
        bans.do_unban(moderator, site_admin, reason="A colleague")
    site_admin.refresh_from_db()
    assert site_admin.is_banned
    bans.do_unban(superuser, site_admin, reason="Cleared")


def test_unmute_and_unban_need_a_reason(moderator, player):
    mutes.do_mute(moderator, player, until=timezone.now() + timedelta(hours=1), reason="Spam")
    bans.do_ban(moderator, player, reason="Spam")
    for lift in (mutes.do_unmute, bans.do_unban):
        with pytest.raises(ModerationError, match="reason"):
            lift(moderator, player, reason="  ")
    client = logged_in(moderator)
    form = client.post(USERS, {"action": "unmute", "_selected_action": [player.pk]})
    assert b"Reason" in form.content  # the admin's unmute asks for one, as every action does
    player.refresh_from_db()
    assert player.is_muted and player.is_banned
    client.post(
        USERS,
        {"action": "unmute", "_selected_action": [player.pk], "apply": "1", "reason": "Appeal"},
    )
    player.refresh_from_db()
    assert not player.is_muted
    assert AuditLog.objects.get(action="unmute").reason == "Appeal"


def test_a_moderator_cant_dismiss_a_report_about_their_own_or_a_colleagues_message(
    moderator, site_admin, player, superuser
):
    from accounts.moderation.models import Report
    from games.models import ChatMessage
    from tests.games.webplay import friends_room, member

    game = friends_room(member(moderator), [member(site_admin)])
    opened = {
        author: Report.objects.create(
            message=ChatMessage.objects.create(
                game=game, user=author, name=author.username, text="rude"
            ),
            reported=author,
            game=game,
            reporter=player,
        )
        for author in (moderator, site_admin)
    }
    dismiss = Report.Outcome.DISMISSED
    with pytest.raises(ModerationError, match="own account"):
        reports.do_resolve_report(moderator, opened[moderator], outcome=dismiss, reason="Banter")
    with pytest.raises(ModerationError, match="staff account"):
        reports.do_resolve_report(moderator, opened[site_admin], outcome=dismiss, reason="Banter")
    assert Report.objects.filter(resolved_at__isnull=True).count() == 2
    reports.do_resolve_report(superuser, opened[site_admin], outcome=dismiss, reason="Banter")
