"""The chat of games between people: open during pauses, cleaned, escaped, rate-limited, closed
after the game, reports (games/actions/chat.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.sites import site
from django.utils import timezone

from accounts.moderation import reports
from accounts.moderation.models import Report
from games import actions
from games.actions import chat, pauses
from games.core import selectors
from games.core.errors import Conflict, GameError, NotAllowed
from games.models import ChatMessage
from tests.factories import friends_room, timed_room, verified_client
from tests.games.webplay import (
    SEED,
    fresh,
    member,
    page_html,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


# --- chat ------------------------------------------------------------------------------------------


def test_chat_text_is_cleaned_and_limited():
    assert chat.clean_text("  hi\u200b\u200d there\x00\x07\n\tyou\u202e ") == "hi there you"
    assert chat.clean_text("\u200b\u200b") == ""


def test_chat_opens_during_pauses_escapes_limits_rate_and_mutes(alice, bob, django_user_model):
    game = timed_room(alice, bob, seconds=30)
    with pytest.raises(Conflict, match="pauses"):
        chat.do_chat(game.pk, alice, "hello")
    pauses.do_pause(game.pk, alice)
    message = chat.do_chat(game.pk, alice, "<script>alert(1)</script>")
    assert message.text == "<script>alert(1)</script>"
    with pytest.raises(GameError, match="200"):
        chat.do_chat(game.pk, bob, "x" * 201)
    chat.do_chat(game.pk, bob, "y" * 200)
    with pytest.raises(GameError, match="Write"):
        chat.do_chat(game.pk, bob, "\u200b")
    for _ in range(4):
        chat.do_chat(game.pk, alice, "again")
    with pytest.raises(chat.TooFast):
        chat.do_chat(game.pk, alice, "one too many")
    django_user_model.objects.filter(pk=bob.user_id).update(
        muted_until=timezone.now() + timedelta(hours=1), mute_reason="Spam"
    )
    with pytest.raises(NotAllowed, match=r"Muted until .*: Spam"):
        chat.do_chat(game.pk, bob, "hello")
    carol = member(django_user_model.objects.create_user("carol"))
    with pytest.raises(NotAllowed):
        chat.do_chat(game.pk, carol, "let me in")
    # Escaped on the game page (both players) ...
    html = page_html(game, bob)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # ... and in the admin.
    admin = django_user_model.objects.create_superuser("root", password="pw-pw-pw-pw")
    client = verified_client(admin)
    for url in ("/admin/games/chatmessage/", f"/admin/games/chatmessage/{message.pk}/change/"):
        page = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # A report is stored once per reporter; one's own message can't be reported.
    report = reports.do_report_message(game.pk, bob, message_id=message.pk, reason="rude")
    assert reports.do_report_message(game.pk, bob, message_id=message.pk).pk == report.pk
    assert Report.objects.filter(message=message).count() == 1
    with pytest.raises(Conflict):
        reports.do_report_message(game.pk, alice, message_id=message.pk)
    assert ChatMessage.objects.filter(game=game).count() == 6
    assert site.is_registered(Report)
    client.get("/admin/accounts/report/").content.decode()


def test_players_say_hello_in_the_waiting_room_and_gg_after_the_game(alice, bob, django_user_model):
    game = friends_room(alice, [bob], start=False)
    chat.do_chat(game.pk, bob, "hi, ready when you are")
    carol = member(django_user_model.objects.create_user("carol"))
    with pytest.raises(NotAllowed, match="Only the players"):
        chat.do_chat(game.pk, carol, "hello from the rail")  # a spectator reads, never writes
    actions.do_start(game.pk, alice)
    actions.do_resign(game.pk, bob)
    game = fresh(game)
    assert game.status == "finished"
    chat.do_chat(game.pk, alice, "gg")
    assert [m.text for m in selectors.chat_messages(game)] == ["hi, ready when you are", "gg"]
    assert "gg" in page_html(game, bob)


def test_during_play_only_the_quick_phrases_under_the_same_limits(alice, bob, django_user_model):
    game = timed_room(alice, bob, seconds=30)
    with pytest.raises(Conflict, match="quick phrases"):
        chat.do_chat(game.pk, alice, "move the blue one")
    chat.do_chat(game.pk, alice, "Good luck!")
    for _ in range(5):  # LUDOPAT_CHAT_RATE: 5 in 10 s
        chat.do_chat(game.pk, bob, "Nice move!")
    with pytest.raises(chat.TooFast):
        chat.do_chat(game.pk, bob, "Thanks!")
    django_user_model.objects.filter(pk=alice.user_id).update(
        muted_until=timezone.now() + timedelta(hours=1), mute_reason="Spam"
    )
    with pytest.raises(NotAllowed, match="Muted until"):
        chat.do_chat(game.pk, alice, "Oops!")
    # The page offers the phrases to a player who may speak; the muted one is told, with no Send.
    assert 'data-testid="quick-phrase-0"' in page_html(game, bob)
    muted = page_html(game, alice)
    assert 'data-testid="chat-muted"' in muted and "Muted until" in muted
    assert 'data-testid="chat-send"' not in muted and 'data-testid="quick-phrases"' not in muted


def test_a_closed_room_keeps_its_chat_readable_only(alice, bob):
    game = friends_room(alice, [bob], start=False)
    chat.do_chat(game.pk, bob, "see you")
    actions.do_leave(game.pk, alice)  # the host closes the room
    with pytest.raises(Conflict, match="closed"):
        chat.do_chat(game.pk, bob, "wait")
    assert "see you" in page_html(fresh(game), bob)


def test_a_report_asks_for_a_reason(alice, bob):
    game = timed_room(alice, bob, seconds=30)
    message = chat.do_chat(game.pk, alice, "Hurry up, please!")
    html = page_html(game, bob)
    assert f'data-testid="report-reason-{message.pk}"' in html and "Why report it?" in html
    assert 'name="reason" required' in html
