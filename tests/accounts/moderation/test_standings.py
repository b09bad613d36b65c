"""A finished round taken out of the standings by an Admin, and a banned player out of the tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.moderation import bans
from accounts.moderation.audit import AuditLog
from accounts.moderation.errors import ModerationError
from accounts.moderation.voids import do_void_result
from games import actions
from games.models import Round
from leaderboard.models import Result
from leaderboard.standings import standings, windows
from tests.games.webplay import friends_room, member

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True


def week_table() -> dict[str, tuple[int, int]]:
    return {s.user.username: (s.points, s.games) for s in standings(windows()["week"])}


@pytest.fixture
def finished(django_user_model):
    """Winner beat loser (the loser resigned): a counted round against people."""
    users = django_user_model.objects
    winner, loser = users.create_user("winner"), users.create_user("loser")
    game = friends_room(member(winner), [member(loser)])
    actions.do_resign(game.pk, member(loser))
    return Round.objects.get(game=game), winner, loser


def test_an_admin_removes_a_finished_round_from_the_standings(finished, site_admin, moderator):
    round_, _winner, _loser = finished
    assert week_table() == {"winner": (10, 1), "loser": (0, 1)}
    url = reverse("admin:games_round_changelist")
    form = {"action": "void_result", "_selected_action": [round_.pk], "apply": "1"}
    logged_in(moderator).post(url, {**form, "reason": "Collusion"})
    assert week_table()["winner"] == (10, 1)  # moderators can't
    logged_in(site_admin).post(url, {**form, "reason": "Collusion"})
    assert week_table() == {}  # no game left: out of the table
    assert set(Result.objects.values_list("void", "counted")) == {(True, False)}
    assert AuditLog.objects.get(action="void_result").reason == "Collusion"
    with pytest.raises(ModerationError, match="already"):
        do_void_result(site_admin, round_, reason="twice")
    assert week_table() == {}


def test_a_banned_player_leaves_the_standings_and_comes_back_when_unbanned(finished, moderator):
    _, winner, _ = finished
    bans.do_ban(moderator, winner, reason="Cheating")
    assert "winner" not in week_table()
    bans.do_unban(moderator, winner, reason="Appeal")
    assert week_table()["winner"] == (10, 1)


def test_a_void_leaves_the_standings_as_if_the_round_never_counted(site_admin):
    """The allowance of the pair's 5 rounds a day comes back for rounds not yet played (a round
    already capped stays uncounted), rows left with no game go, and the tie-break time is the one
    the remaining rounds give."""
    from datetime import timedelta

    from django.utils import timezone

    from leaderboard.models import PairDay, Standing
    from tests.leaderboard.helpers import accounts, write

    start = timezone.now().replace(hour=0, minute=0, second=1, microsecond=0)
    ann, bob, cat, dan, eve, fay = accounts("ann", "bob", "cat", "dan", "eve", "fay")

    def at(minute):
        return start + timedelta(seconds=minute)

    # A lone round: voided, it leaves nothing in the tables.
    lone = write([eve, fay], at(1))
    do_void_result(site_admin, lone[0].round, reason="Collusion")
    assert not Standing.objects.filter(user__in=[eve, fay]).exists()

    # Ties on points: ann reached 10 first, then cat; ann's later win is voided.
    write([ann, bob], at(2))
    write([cat, dan], at(3))
    late = write([ann, bob], at(4))
    assert [s.user.username for s in standings(windows()["week"])][:2] == ["ann", "cat"]
    do_void_result(site_admin, late[0].round, reason="Collusion")
    assert [(s.user.username, s.points) for s in standings(windows()["week"])][:2] == [
        ("ann", 10),
        ("cat", 10),
    ]  # ann got to 10 first, as if the voided round never counted

    # The pair's day: 4 more rounds fill it (5 counted), the 6th is capped. Voiding a counted one
    # frees one round of the allowance for a round played later that day, not for the capped one.
    played = [write([cat, dan], at(10 + n)) for n in range(4)]
    capped = write([cat, dan], at(20))
    assert not capped[0].counted
    do_void_result(site_admin, played[0][0].round, reason="Collusion")
    assert PairDay.objects.get(low=cat, high=dan).rounds == 4
    capped[0].refresh_from_db()
    assert not capped[0].counted  # already played while the pair's day was full
    later = write([cat, dan], at(30))
    assert later[0].counted and later[0].points == 10
    assert week_table()["cat"] == (50, 5)  # 5 counted wins: the voided and the capped ones out
