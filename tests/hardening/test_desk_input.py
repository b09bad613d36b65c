"""The moderator's desk gets the hostile-input corpus from a moderator, the one person whose requests
reach its forms (tests/hardening/test_hostile_input.py sends it to every URL as a player and as a
visitor, who are refused before any form): never a 500, every refusal a 4xx that says why, and the
open report stays open with nothing done."""

from __future__ import annotations

import re

import pytest

from accounts.moderation.audit import AuditLog
from accounts.moderation.models import Report
from games.models import ChatMessage
from tests.accounts.moderation.conftest import staff
from tests.games.webplay import friends_room, member

from .test_hostile_input import (
    BAD_IDS,
    check,
    client_for,
    fill,
    send_corpus,
    signed_in,
    url_patterns,
)

pytestmark = pytest.mark.django_db


def test_no_desk_url_answers_a_500_or_acts_on_a_moderators_bad_input(
    django_user_model, settings, redis_client
):
    from accounts.moderation.roles import MODERATOR

    settings.LUDOPAT_BOT_DELAY = 600
    alice, bob = (django_user_model.objects.create_user(n) for n in ("alice", "bob"))
    game = friends_room(member(alice), [member(bob)])
    message = ChatMessage.objects.create(game=game, user=bob, name="bob", text="idiot")
    report = Report.objects.create(message=message, reported=bob, game=game, reporter=alice)
    moderator = staff(django_user_model, "mod", MODERATOR)

    routes = [route for route, _ in url_patterns() if route.startswith("desk/")]
    assert len(routes) >= 2  # the queue and a report: the URLconf really was read
    client = client_for(moderator)
    for route in routes:
        for values in ({"report_id": str(report.pk)}, {}):
            signed_in(client, moderator)  # the corpus may have logged the moderator out
            send_corpus(client, fill(route, values))
        for bad in [*BAD_IDS, "9" * 40] if "<" in route else []:
            bad_url = re.sub(r"<(?:\w+:)?\w+>", bad, "/" + route)
            check(client.get(bad_url), f"GET {bad_url[:80]}")

    report.refresh_from_db()
    message.refresh_from_db()
    bob.refresh_from_db()
    assert report.is_open and message.hidden_at is None and not bob.is_muted and bob.is_active
    assert not AuditLog.objects.exists()
