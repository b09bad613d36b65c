"""The tournaments' pages as a player sees them: the lobby's split before anyone joins, joining from
it, the bracket with its matches and their rooms, the player page's finishes, the admin's flag of a
stalled bracket and a moderator's audited cancel."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.moderation.audit import AuditLog
from accounts.moderation.errors import ModerationError
from accounts.moderation.tournaments import do_cancel_tournament
from games.models import Action, Game
from games.tournaments import reads
from games.tournaments.models import Tournament
from games.tournaments.registration import do_register, open_tournament
from games.tournaments.starting import do_cancel
from tests.games.tournaments.helpers import (
    balances,
    fresh,
    full_tournament,
    live_matches,
    play_out,
    players,
)
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def logged_in(actor) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=actor.user_id))
    return client


def test_the_lobby_shows_the_split_and_a_player_joins_from_it():
    (ann,) = players(1)
    tournament = open_tournament(8, 100)
    page = Client().get("/tournaments/").content.decode()
    # Pot 800, cut 80: 720 shared 50/25/12.5/12.5.
    assert "0 of 8 seats taken" in page
    # Every share is labelled: the two semi-final losers' "3rd-4th: 90 each".
    assert "1st: 360 (50%)" in page and "2nd: 180 (25%)" in page
    assert "3rd-4th: 90 each (12.5%)" in page
    client = logged_in(ann)
    answer = client.post(f"/tournaments/{tournament.pk}/join")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert fresh(tournament).entries.count() == 1
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "1 of 8 seats taken" in page and "Leave and get my 100 coins back" in page
    answer = client.post(f"/tournaments/{tournament.pk}/leave", follow=True)
    assert "your buy-in is back" in answer.content.decode()


def test_a_refused_join_says_why_and_a_bad_address_is_a_404():
    (ann,) = players(1)
    tournament = open_tournament(4, 100)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CANCELLED)
    answer = logged_in(ann).post(f"/tournaments/{tournament.pk}/join", follow=True)
    assert "has started or is over" in answer.content.decode()
    assert Client().get("/tournaments/999999/").status_code == 404


def test_the_bracket_lists_matches_with_rooms_and_the_player_page_the_finishes():
    people = players(4)
    tournament = full_tournament(people)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    for match in live_matches(tournament):
        assert f"/games/{match.game_id}" in page
        assert match.first.user.username in page
    tournament = play_out(tournament, people)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Finished." in page and "Replay" in page
    champion = tournament.entries.get(place=1).user
    profile = Client().get(f"/u/{champion.username}/").content.decode()
    assert f"Tournament #{tournament.pk}" in profile and "1st" in profile and "won 252" in profile


def test_a_match_room_links_back_to_its_bracket_and_other_rooms_do_not():
    people = players(4)
    tournament = full_tournament(people)
    match = live_matches(tournament)[0]
    page = Client().get(f"/games/{match.game_id}/").content.decode()
    link = re.search(r'data-testid="tournament-link">(.*?)</p>', page)
    assert link, "a tournament match's room names its tournament"
    assert f'href="/tournaments/{tournament.pk}/"' in link.group(1)
    assert link.group(1).startswith("Semi-final of Tournament #")
    room = Game.objects.create(mode=Game.Mode.FRIENDS, ruleset="twodice")
    answer = Client().get(f"/games/{room.pk}/")
    assert answer.status_code == 200
    assert 'data-testid="tournament-link"' not in answer.content.decode()


def test_a_bracket_without_progress_for_ten_minutes_is_flagged():
    people = players(4)
    tournament = full_tournament(people)
    assert not reads.stalled().exists()
    long_ago = timezone.now() - timedelta(minutes=11)
    Tournament.objects.filter(pk=tournament.pk).update(progressed=long_ago)
    games = [m.game_id for m in live_matches(tournament)]
    assert not reads.stalled().exists()  # its rooms were played a moment ago
    # The actions are append-only history; in this test their times are moved back by SQL.
    Action.objects.filter(game_id__in=games).update(created=long_ago)
    assert list(reads.stalled()) == [fresh(tournament)]


def test_a_moderators_cancel_refunds_and_is_audited(django_user_model):
    from tests.accounts.moderation.conftest import staff

    moderator = staff(django_user_model, "mod", "Moderator")
    admin = staff(django_user_model, "boss", "Admin")
    people = players(4)
    before = balances(people)
    tournament = full_tournament(people)
    with pytest.raises(ModerationError):
        do_cancel_tournament(moderator, tournament.pk, reason="no right")
    with pytest.raises(ModerationError, match="reason"):
        do_cancel_tournament(admin, tournament.pk, reason=" ")
    do_cancel_tournament(admin, tournament.pk, reason="Collusion suspected")
    assert balances(people) == before
    entry = AuditLog.objects.get(action="cancel_tournament")
    assert entry.moderator == admin and entry.after["status"] == "cancelled"


def test_collusion_flags_count_tournament_matches():
    from accounts.moderation.collusion import _head_to_head

    people = players(4)
    play_out(full_tournament(people), people)
    pairs = _head_to_head()
    assert sum(len(rounds) for rounds in pairs.values()) == 3  # two semi-finals and the final


@pytest.mark.parametrize("stage", ["registering", "in play"])
def test_leaving_a_cancelled_tournament_from_a_stale_page_says_it_was_cancelled(stage):
    people = players(4)
    if stage == "registering":  # three of four seats taken: no countdown yet
        tournament = open_tournament(4, 100)
        for actor in people[:3]:
            do_register(actor, tournament.pk)
    else:
        tournament = full_tournament(people)
    before = balances(people)
    do_cancel(tournament.pk, "The admin called it off")
    ann = next(p for p in people if fresh(tournament).entries.filter(user_id=p.user_id).exists())
    # Her bracket page is from before the cancel: she presses Leave (or Forfeit) on it.
    for button in ("leave", "forfeit"):
        answer = logged_in(ann).post(f"/tournaments/{tournament.pk}/{button}", follow=True)
        said = answer.content.decode()
        assert "was cancelled" in said and "buy-in is back in your wallet" in said, button
        assert "started" not in said and "stays in the pot" not in said, button
    assert balances([ann])[ann.user_id] == before[ann.user_id] + tournament.buy_in
