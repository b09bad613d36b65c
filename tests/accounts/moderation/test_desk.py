"""The moderator's desk (/desk/): staff only; the open reports' count in every page's nav; the queue,
players with the most open reports first, then oldest first; a report with its conversation or its
game, the player's history (coins for Admins only) and the actions, each the audited service the
admin calls; refusals in words; the reporter told the outcome on their next page."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import mutes, renames, reports
from accounts.moderation.audit import AuditLog
from accounts.moderation.models import Report
from accounts.web.desk_views import NO_ROLE, NOT_STAFF

from .conftest import logged_in, said

pytestmark = pytest.mark.django_db


def reported(reporter, minutes_ago: int, *, message=None, player=None, game=None, reason="rude"):
    made = Report.objects.create(
        message=message,
        reported=message.user if message else player,
        game=message.game if message else game,
        reporter=reporter,
        reason=reason,
    )
    Report.objects.filter(pk=made.pk).update(
        created=timezone.now() - timedelta(minutes=minutes_ago)
    )
    made.refresh_from_db()
    return made


def page_of(report) -> str:
    return reverse("desk_report", args=[report.pk])


def text(response) -> str:
    """The page as read (entities decoded), whitespace collapsed."""
    return " ".join(html.unescape(response.content.decode()).split())


# --- who may open it -----------------------------------------------------------------------------------


def test_only_moderators_open_the_desk(client, player, moderator, django_user_model):
    assert client.get("/desk/").url.startswith(reverse("login") + "?next=/desk/")
    refused = logged_in(player).get("/desk/")
    assert refused.status_code == 403 and NOT_STAFF in text(refused)
    roleless = django_user_model.objects.create_user("intern", is_staff=True)
    refused = logged_in(roleless).get("/desk/")
    assert refused.status_code == 403 and NO_ROLE in text(refused)
    assert logged_in(moderator).get("/desk/").status_code == 200


def test_every_page_shows_moderators_the_open_reports_count(room, player, moderator):
    game, victim = room
    home = logged_in(moderator).get("/")
    assert 'data-testid="nav-desk"' in home.content.decode()
    assert 'data-testid="nav-desk-count"' not in home.content.decode()  # nothing open: no badge
    reported(victim, 3, message=said(game, player, "idiot", 4))
    reported(victim, 2, player=player, reason="cheats")
    for url in ("/", "/leaderboard/", reverse("wallet")):
        page = text(logged_in(moderator).get(url))
        assert '<span class="nav-badge" data-testid="nav-desk-count">2</span>' in page
        assert "Desk 2 open reports" in re.sub(r"<[^>]+>", "", page)  # what a screen reader says
    assert "nav-desk" not in logged_in(player).get("/").content.decode()


# --- the queue -----------------------------------------------------------------------------------------


def test_the_queue_puts_the_most_reported_player_first_then_the_oldest(
    room, player, moderator, django_user_model
):
    game, victim = room
    other, lone = (django_user_model.objects.create_user(n) for n in ("other", "lone"))
    other_old = reported(victim, 60, player=other, reason="rude name")
    troll_old = reported(victim, 30, message=said(game, player, "idiot", 31))
    troll_new = reported(victim, 10, player=player, reason="cheats")
    other_new = reported(player, 5, player=other, reason="spam")
    lone_old = reported(victim, 70, player=lone)
    victim_new = reported(player, 20, player=victim, reason="slow")
    closed = reported(victim, 90, message=said(game, player, "old insult", 91))
    reports.do_resolve_report(moderator, closed, outcome=Report.Outcome.DISMISSED, reason="banter")

    page = logged_in(moderator).get("/desk/")
    order = [entry.report.pk for entry in page.context["entries"]]
    # Two open each: other's (oldest 60 min ago), then troll's; then one each, oldest first.
    expected = [other_old, other_new, troll_old, troll_new, lone_old, victim_new]
    assert order == [r.pk for r in expected]
    shown = text(page)
    assert "6 open reports" in shown and "2 open reports on troll" in shown
    assert "troll: “idiot”" in shown and "other, reported as a player" in shown
    assert "Resolved lately" in shown and "banter" in shown


def test_an_empty_queue_says_so(moderator):
    assert "No open reports" in text(logged_in(moderator).get("/desk/"))


# --- a report ------------------------------------------------------------------------------------------


def test_a_message_report_shows_its_conversation_and_the_players_history(
    room, player, moderator, site_admin
):
    game, victim = room
    said(game, victim, "good luck", 10)
    bad = said(game, player, "you are an idiot", 9)
    said(game, victim, "please stop", 8)
    earlier = reported(victim, 600, player=player, reason="cheated yesterday")
    reports.do_resolve_report(
        moderator, earlier, outcome=Report.Outcome.DISMISSED, reason="no proof"
    )
    mutes.do_mute(moderator, player, until=timezone.now() + timedelta(hours=1), reason="Spam")
    mutes.do_unmute(moderator, player, reason="Apologised")
    renames.do_rename(moderator, player, new_username="troll2", reason="Rude name")
    entry = reported(victim, 5, message=bad, reason="insult")

    shown = text(logged_in(moderator).get(page_of(entry)))
    for line in ("good luck", "you are an idiot", "please stop", "“insult”", "victim"):
        assert line in shown
    assert 'data-testid="desk-reported-message"' in shown
    # The history: the earlier report and how it ended, the mute and its lifting, the rename.
    assert "cheated yesterday" not in shown  # the earlier report is listed by what it was about
    assert "as a player</a>, by victim" in shown and "dismissed by mod" in shown
    assert "muted until" in shown and "“Spam”" in shown and "mute lifted" in shown
    assert "renamed from troll to troll2" in shown
    assert "Neither muted nor banned now." in shown
    assert (
        'data-testid="desk-coins"' not in shown and "Balance:" not in shown
    )  # moderators: no coins

    as_admin = text(logged_in(site_admin).get(page_of(entry)))
    assert "Balance: <strong>" in as_admin and 'data-testid="desk-coins"' in as_admin


def test_a_player_report_shows_the_game_it_came_from(room, player, moderator):
    game, victim = room
    said(game, player, "gg ez noob", 3)
    entry = reported(victim, 1, player=player, game=game, reason="taunts")
    shown = text(logged_in(moderator).get(page_of(entry)))
    assert "Friends room, Classic" in shown and "Players: victim, troll." in shown
    assert "gg ez noob" in shown and reverse("game", args=[game.pk]) in shown
    assert "Hide the message" not in shown  # nothing to hide


def test_a_report_from_a_profile_says_there_is_no_game(room, player, moderator):
    _, victim = room
    entry = reported(victim, 1, player=player)
    assert "not from a game" in text(logged_in(moderator).get(page_of(entry)))


# --- acting --------------------------------------------------------------------------------------------


def test_a_moderator_mutes_for_a_day_from_the_desk_audited_as_the_admin_does(
    room, player, moderator
):
    game, victim = room
    entry = reported(victim, 5, message=said(game, player, "idiot", 6))
    client = logged_in(moderator)
    answer = client.post(
        page_of(entry), {"outcome": "muted", "mute_for": "24", "ban_for": "24", "reason": "Insults"}
    )
    assert answer.status_code == 302 and answer.url == "/desk/"
    player.refresh_from_db()
    assert player.is_muted and player.mute_reason == "Insults"
    assert timedelta(hours=23) < player.muted_until - timezone.now() <= timedelta(hours=24)
    entry.refresh_from_db()
    assert (entry.outcome, entry.resolved_by, entry.note) == ("muted", moderator, "Insults")
    log = AuditLog.objects.order_by("pk")
    assert [(e.action, e.moderator, e.user) for e in log] == [
        ("mute", moderator, player),
        ("resolve_report", moderator, player),
    ]
    queue = text(client.get("/desk/"))
    assert "troll is muted until" in queue and "No open reports" in queue
    # The resolved report's page says how it ended and offers nothing more.
    resolved = text(client.get(page_of(entry)))
    assert "Player muted by mod" in resolved and 'name="outcome"' not in resolved
    assert "Muted until" in resolved


def test_a_ban_lasts_a_day_unless_until_lifted_is_chosen(
    room, player, moderator, django_user_model
):
    game, victim = room
    client = logged_in(moderator)
    first = reported(victim, 5, message=said(game, player, "threat", 6))
    form = client.get(page_of(first)).context["form"]
    assert form["ban_for"].value() == "24"  # a day, never open-ended by default
    client.post(
        page_of(first),
        {"outcome": "banned", "mute_for": "24", "ban_for": "24", "reason": "Threats"},
    )
    player.refresh_from_db()
    assert player.is_banned and timedelta(hours=23) < player.banned_until - timezone.now()

    spammer = django_user_model.objects.create_user("spammer")
    second = reported(victim, 1, player=spammer)
    client.post(
        page_of(second), {"outcome": "banned", "mute_for": "24", "ban_for": "", "reason": "Bot"}
    )
    spammer.refresh_from_db()
    assert spammer.is_banned and spammer.banned_until is None


def test_hiding_a_message_closes_every_report_of_it(room, player, moderator):
    game, victim = room
    bad = said(game, player, "spam link", 4)
    first = reported(victim, 3, message=bad)
    second = reported(moderator, 2, message=bad)
    answer = logged_in(moderator).post(
        page_of(first), {"outcome": "hidden", "mute_for": "24", "ban_for": "24", "reason": ""}
    )
    assert answer.status_code == 302
    bad.refresh_from_db()
    assert bad.hidden_at is not None
    second.refresh_from_db()
    assert second.outcome == "hidden"
    assert list(AuditLog.objects.values_list("action", flat=True).order_by("pk")) == [
        "hide_message",
        "resolve_report",
    ]


def test_dismissing_needs_no_reason(room, player, moderator):
    _, victim = room
    entry = reported(victim, 1, player=player)
    answer = logged_in(moderator).post(
        page_of(entry), {"outcome": "dismissed", "mute_for": "24", "ban_for": "24"}
    )
    assert answer.status_code == 302
    entry.refresh_from_db()
    assert entry.outcome == "dismissed"


# --- refusals ------------------------------------------------------------------------------------------


def test_a_mute_without_a_reason_is_refused_next_to_the_field(room, player, moderator):
    _, victim = room
    entry = reported(victim, 1, player=player)
    answer = logged_in(moderator).post(
        page_of(entry), {"outcome": "muted", "mute_for": "168", "ban_for": "24", "reason": "  "}
    )
    assert answer.status_code == 400
    assert "Give a reason: the player is shown it." in text(answer)
    assert '<option value="168" selected>' in answer.content.decode()  # the choice is kept
    player.refresh_from_db()
    entry.refresh_from_db()
    assert not player.is_muted and entry.is_open and not AuditLog.objects.exists()


@pytest.mark.parametrize(
    ("data", "status", "sentence"),
    [
        ({"outcome": "hidden"}, 400, "A player report has no message to hide."),
        ({"outcome": "nuke"}, 400, "Choose what to do with the report: one of the buttons."),
        ({}, 400, "Choose what to do with the report: one of the buttons."),
        ({"outcome": "muted", "mute_for": "9999", "reason": "x"}, 400, "Choose how long the mute"),
        ({"outcome": "dismissed", "reason": "a\x00b"}, 400, "Write the reason as plain text."),
    ],
)
def test_bad_decisions_are_refused_in_words(room, player, moderator, data, status, sentence):
    _, victim = room
    entry = reported(victim, 1, player=player)
    answer = logged_in(moderator).post(page_of(entry), {"mute_for": "24", "ban_for": "24", **data})
    assert answer.status_code == status and sentence in text(answer)
    entry.refresh_from_db()
    assert entry.is_open and not AuditLog.objects.exists()


def test_a_report_resolved_meanwhile_is_refused(room, player, moderator, django_user_model):
    _, victim = room
    entry = reported(victim, 1, player=player)
    reports.do_resolve_report(moderator, entry, outcome=Report.Outcome.DISMISSED, reason="")
    answer = logged_in(moderator).post(page_of(entry), {"outcome": "muted", "reason": "late"})
    assert answer.status_code == 409 and "resolved already" in text(answer)
    player.refresh_from_db()
    assert not player.is_muted


def test_the_services_rules_come_back_in_words(room, moderator, django_user_model):
    _, victim = room
    colleague = django_user_model.objects.create_user("colleague", is_staff=True)
    entry = reported(victim, 1, player=colleague)
    answer = logged_in(moderator).post(
        page_of(entry), {"outcome": "muted", "mute_for": "24", "ban_for": "24", "reason": "Rude"}
    )
    assert answer.status_code == 400
    assert "Only a superuser can do that to a staff account." in text(answer)


def test_a_missing_report_and_a_forged_post_are_refused(room, player, moderator):
    _, victim = room
    client = logged_in(moderator)
    missing = client.get("/desk/reports/999999/")
    assert missing.status_code == 404 and "There is no report with that number" in text(missing)
    # Too long to be a report's number: the address is no page at all (its converter's bound).
    missing = client.get(f"/desk/reports/{'9' * 30}/")
    assert missing.status_code == 404 and "There is nothing at this address" in text(missing)
    entry = reported(victim, 1, player=player)
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(moderator)
    answer = forged.post(page_of(entry), {"outcome": "dismissed", "mute_for": "24"})
    assert answer.status_code == 403
    entry.refresh_from_db()
    assert entry.is_open
    # A player can't act through the desk either.
    answer = logged_in(victim).post(page_of(entry), {"outcome": "dismissed", "mute_for": "24"})
    assert answer.status_code == 403 and entry.is_open


# --- the reporter is told ------------------------------------------------------------------------------


def test_the_reporter_is_told_the_outcome_on_their_next_page_once(
    room, player, moderator, django_capture_on_commit_callbacks
):
    game, victim = room
    entry = reported(victim, 5, message=said(game, player, "idiot", 6))
    reporter = logged_in(victim)
    assert "moderator" not in text(reporter.get("/"))
    with django_capture_on_commit_callbacks(execute=True):  # the reporter has news once it commits
        reports.do_resolve_report(
            moderator,
            entry,
            outcome=Report.Outcome.MUTED,
            reason="Insults",
            until=timezone.now() + timedelta(hours=1),
        )
    assert reporter.get("/", HTTP_HX_REQUEST="true").status_code == 200  # a swap keeps the news
    news = "After your report, a moderator muted troll's chat."
    assert news in text(reporter.get("/leaderboard/"))
    assert news not in text(reporter.get("/leaderboard/"))  # told once
    # Nothing new: the reporter's pages read no reports at all.
    with CaptureQueriesContext(connection) as pages:
        reporter.get("/")
    assert not any("games_chatreport" in q["sql"] for q in pages.captured_queries)
    other = reported(victim, 1, player=player, reason="cheats")
    with django_capture_on_commit_callbacks(execute=True):
        reports.do_resolve_report(moderator, other, outcome=Report.Outcome.DISMISSED, reason="")
    assert "found nothing against the rules" in text(reporter.get("/"))
    assert "moderator" not in text(logged_in(player).get("/"))  # only the reporter hears of it


def test_every_reporter_of_a_message_is_told_when_one_resolution_closes_their_reports(
    room, player, moderator, django_capture_on_commit_callbacks, django_user_model
):
    game, victim = room
    witness = django_user_model.objects.create_user("witness")
    message = said(game, player, "idiot", 6)
    first = reported(victim, 1, message=message)
    reported(witness, 1, message=message)  # a second reporter of the same message
    pages = [logged_in(victim), logged_in(witness)]
    for page in pages:  # both have been told everything so far
        assert "moderator hid" not in text(page.get("/"))
    with django_capture_on_commit_callbacks(execute=True):
        reports.do_resolve_report(moderator, first, outcome=Report.Outcome.HIDDEN, reason="")
    for page in pages:
        assert "After your report, a moderator hid troll's message" in text(page.get("/"))


def test_a_failing_cache_tells_nothing_and_fails_no_page(room, player, moderator, redis_down):
    _, victim = room
    entry = reported(victim, 1, player=player)
    reports.do_resolve_report(moderator, entry, outcome=Report.Outcome.DISMISSED, reason="")
    assert logged_in(victim).get("/leaderboard/").status_code == 200


def test_the_admin_links_to_the_desk_with_the_count(room, player, moderator):
    _, victim = room
    reported(victim, 1, player=player)
    page = text(logged_in(moderator).get(reverse("admin:index")))
    assert "Moderator's desk (1 open)" in page
