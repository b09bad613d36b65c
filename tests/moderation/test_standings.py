"""A finished round taken out of the standings by an Admin, and a banned player out of the tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import moderation
from accounts.audit import AuditLog
from games import actions
from games.actions.moderation import do_void_result
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
    assert week_table() == {"winner": (0, 0), "loser": (0, 0)}
    assert set(Result.objects.values_list("void", "counted")) == {(True, False)}
    assert AuditLog.objects.get(action="void_result").reason == "Collusion"
    with pytest.raises(moderation.ModerationError, match="already"):
        do_void_result(site_admin, round_, "twice")
    assert week_table()["winner"] == (0, 0)


def test_a_banned_player_leaves_the_standings_and_comes_back_when_unbanned(finished, moderator):
    _, winner, _ = finished
    moderation.do_ban(moderator, winner, "Cheating")
    assert "winner" not in week_table()
    moderation.do_unban(moderator, winner, "Appeal")
    assert week_table()["winner"] == (10, 1)
