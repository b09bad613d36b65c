"""The tournament's chat (games/tournaments/chat.py) under the game chat's rules: a spectator and a
player between matches write freely, a player whose match is in play only the quick phrases, a muted
or banned account is refused (a banned one sees no chat, and its lines leave it), guests read; lines are reported to the
moderators' queue and a hidden one leaves the page; a line reaches every open bracket page live."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.moderation import bans, mutes
from accounts.moderation.chat import do_hide_message
from accounts.moderation.models import Report
from accounts.moderation.roles import MODERATOR
from games.actions.chat import QUICK_PHRASES
from games.core.errors import Banned, Conflict, NotAllowed
from games.models import ChatMessage
from games.tournaments.chat import do_tournament_chat
from games.tournaments.registration import do_register, open_tournament
from tests.accounts.moderation.conftest import staff
from tests.factories import member, seasoned_account
from tests.games.tournaments.helpers import full_tournament, live_matches, lose, players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def client_of(actor) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=actor.user_id))
    return client


def page_of(tournament, client: Client | None = None) -> str:
    return (client or Client()).get(f"/tournaments/{tournament.pk}/").content.decode()


def test_a_spectator_writes_freely_and_everyone_reads_it_a_guest_cannot_write():
    tournament = open_tournament(4, 100)
    fan = member(seasoned_account("fan"))
    answer = client_of(fan).post(
        f"/tournaments/{tournament.pk}/chat",
        {"text": "  Go   go\u200b go! "},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200 and answer.content == b""
    line = ChatMessage.objects.get(tournament=tournament)
    assert (line.text, line.name, line.game_id) == ("Go go go!", "fan", None)
    guest_page = page_of(tournament)
    assert "Go go go!" in guest_page
    assert 'data-testid="chat-form"' not in guest_page and "to chat." in guest_page
    assert Client().post(f"/tournaments/{tournament.pk}/chat", {"text": "hi"}).status_code == 302
    assert ChatMessage.objects.count() == 1


def test_a_player_in_play_sends_quick_phrases_only_and_writes_freely_once_out():
    people = players(4)
    tournament = full_tournament(people)
    match = live_matches(tournament)[0]
    loser = next(a for a in people if a.user_id == match.first.user_id)
    with pytest.raises(Conflict, match="quick phrases"):
        do_tournament_chat(tournament.pk, loser, "pass me the dice")
    assert do_tournament_chat(tournament.pk, loser, QUICK_PHRASES[1]).text == "Good luck!"
    page = page_of(tournament, client_of(loser))
    assert 'data-testid="chat-quick-only"' in page and 'data-testid="chat-form"' not in page
    # The refusal is said under the form, not as an error page.
    answer = client_of(loser).post(
        f"/tournaments/{tournament.pk}/chat", {"text": "psst"}, HTTP_HX_REQUEST="true"
    )
    assert "pick one of the quick phrases" in answer.content.decode()
    lose(match, people)  # knocked out: no match in play any more
    assert do_tournament_chat(tournament.pk, loser, "well, next time").text == "well, next time"
    assert 'data-testid="chat-form"' in page_of(tournament, client_of(loser))


def test_muted_and_banned_accounts_are_refused_and_a_banned_one_sees_no_chat():
    tournament = open_tournament(4, 100)
    moderator = staff(User, "mod", MODERATOR)
    loud, rude = (member(seasoned_account(name)) for name in ("loud", "rude"))
    do_tournament_chat(tournament.pk, rude, "before the ban")
    mutes.do_mute(
        moderator,
        User.objects.get(pk=loud.user_id),
        until=timezone.now() + timedelta(hours=1),
        reason="Spam",
    )
    with pytest.raises(NotAllowed, match="Spam"):
        do_tournament_chat(tournament.pk, loud, "hello")
    assert 'data-testid="chat-muted"' in page_of(tournament, client_of(loud))
    assert "before the ban" in page_of(tournament)
    bans.do_ban(moderator, User.objects.get(pk=rude.user_id), reason="Insults")
    with pytest.raises(Banned):
        do_tournament_chat(tournament.pk, rude, "again")
    # The ban ended the account's sessions; its lines leave the chat (kept for the moderators).
    assert "before the ban" not in page_of(tournament)
    assert ChatMessage.objects.filter(tournament=tournament).count() == 1
    # A banned account's session is ended at its next request: it reads as a guest, writes nothing.
    banned_client = Client()
    banned_client.force_login(User.objects.get(pk=rude.user_id))
    page = page_of(tournament, banned_client)
    assert "to chat." in page and 'data-testid="chat-form"' not in page


def test_a_line_is_reported_once_and_hidden_by_a_moderator():
    tournament = open_tournament(4, 100)
    author, reader = (member(seasoned_account(name)) for name in ("author", "reader"))
    line = do_tournament_chat(tournament.pk, author, "buy coins at spam.example")
    assert f'data-testid="report-{line.pk}"' in page_of(tournament, client_of(reader))
    for _ in range(2):
        answer = client_of(reader).post(
            f"/tournaments/{tournament.pk}/report",
            {"message": line.pk, "reason": "Spam or advertising"},
            HTTP_HX_REQUEST="true",
        )
        assert "Reported" in answer.content.decode()
    report = Report.objects.get()
    assert (report.message_id, report.reported_id, report.reporter_id) == (
        line.pk,
        author.user_id,
        reader.user_id,
    )
    own = client_of(author).post(
        f"/tournaments/{tournament.pk}/report", {"message": line.pk}, HTTP_HX_REQUEST="true"
    )
    assert own.status_code == 409
    do_hide_message(staff(User, "mod", MODERATOR), line, reason="spam")
    assert "spam.example" not in page_of(tournament, client_of(reader))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_line_reaches_a_player_and_a_spectator_bracket_page_live(redis_client):
    from tests.games.test_consumers import session_for
    from tests.games.tournaments.test_live import until, watch

    channel_layers.backends.clear()  # this test's own event loop
    tournament = await database_sync_to_async(open_tournament)(4, 100)
    player = await database_sync_to_async(member)(
        await database_sync_to_async(seasoned_account)("player")
    )
    await database_sync_to_async(do_register)(player, tournament.pk)
    user = await database_sync_to_async(User.objects.get)(pk=player.user_id)
    spectator_ws = await watch(tournament.pk)
    player_ws = await watch(tournament.pk, await database_sync_to_async(session_for)(user))
    await spectator_ws.receive_from(timeout=5)  # the bracket on connect
    await player_ws.receive_from(timeout=5)
    fan = await database_sync_to_async(member)(
        await database_sync_to_async(seasoned_account)("fan")
    )
    await database_sync_to_async(do_tournament_chat)(tournament.pk, fan, "Good luck, player!")
    for ws in (spectator_ws, player_ws):
        line = await until(ws, "Good luck, player!")
        assert 'hx-swap-oob="beforeend:#chat-log"' in line
    # The player may report the spectator's line; a guest (no account) gets no Report button.
    assert "Report" in line
    await spectator_ws.disconnect()
    await player_ws.disconnect()
