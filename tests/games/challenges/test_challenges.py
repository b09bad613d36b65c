"""Challenges: a table offered to one player, refused with a sentence where it can't be played, and
accepted, declined, withdrawn or lapsed (docs/pages.md, "Challenges")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.ledger.history import balance_of
from accounts.social.blocks import do_block
from accounts.social.follows import do_follow
from accounts.users import browsers
from games import actions
from games.challenges.answers import do_accept, do_decline, do_withdraw
from games.challenges.issuing import do_invite
from games.challenges.lapses import lapse_due
from games.challenges.models import Challenge
from games.core.errors import Banned, Conflict, GameError, NotAllowed
from games.models import Game, Seat
from games.staking.rooms import do_cancel_staked_room, do_create_staked_room, do_join_staked_room
from leaderboard.models import Rating, Result, Standing
from leaderboard.outcomes import UNRATED, round_outcomes
from tests.factories import member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

from .helpers import ban, challenge, logged_in, player, told

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushed(django_capture_on_commit_callbacks):
    """What a block of code pushes after its commit, sent as it ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0  # two-day-old accounts stake up to the stake's bounds


# --- refusals, each with its sentence


def test_a_challenge_to_oneself_is_refused():
    ann = player("ann")
    with pytest.raises(GameError, match="can't challenge yourself"):
        challenge(ann, ann)
    assert not Challenge.objects.exists()


def test_a_challenge_to_no_such_player_is_refused():
    ann = player("ann")
    ghost = player("ghost")
    ghost.is_active = False
    ghost.save()
    with pytest.raises(GameError, match="no player called ghost") as refused:
        challenge(ann, ghost)
    assert refused.value.status == 404


def test_a_challenge_to_a_banned_player_is_refused_and_a_banned_challenger_too():
    ann, ben = player("ann"), player("ben")
    ban(ben)
    with pytest.raises(Conflict, match="ben is banned"):
        challenge(ann, ben)
    with pytest.raises(Banned, match="Your account is banned"):
        challenge(ben, ann)


def test_a_challenge_blocked_either_way_is_refused():
    ann, ben = player("ann"), player("ben")
    do_block(ben.pk, ann.pk)
    with pytest.raises(NotAllowed, match="ben doesn't take challenges from you"):
        challenge(ann, ben)
    with pytest.raises(NotAllowed, match="You have blocked ann: unblock them"):
        challenge(ben, ann)
    assert not Challenge.objects.exists()


def test_a_second_challenge_while_one_waits_is_refused_but_not_once_it_lapsed():
    ann, ben = player("ann"), player("ben")
    first = challenge(ann, ben)
    with pytest.raises(Conflict, match="challenged ben already"):
        challenge(ann, ben, seats=4)
    Challenge.objects.filter(pk=first.pk).update(lapses=timezone.now() - timedelta(seconds=1))
    second = challenge(ann, ben, seats=4)
    assert Challenge.objects.get(pk=first.pk).status == Challenge.Status.LAPSED
    assert second.status == Challenge.Status.PENDING


@pytest.mark.parametrize(
    ("terms", "sentence"),
    [
        ({"ruleset": "duel", "seats": 4}, "Duel is not played by 4 players"),
        ({"ruleset": "classic", "seats": 3}, "a table of 2 or 4"),
        ({"ruleset": "classic", "timer_seconds": 0}, "10, 15 or 30 seconds"),
        ({"ruleset": "classic", "seats": 4, "stake": "100"}, "a 1 v 1"),
        ({"ruleset": "classic", "stake": "1e9"}, "whole number of coins"),
    ],
)
def test_a_challenge_that_cant_be_played_is_refused_with_a_sentence(terms, sentence):
    ann, ben = player("ann"), player("ben")
    with pytest.raises(GameError, match=sentence):
        challenge(ann, ben, **terms)


def test_challenges_are_rate_limited_per_account(settings):
    settings.LUDOPAT_RATES = {"challenge": (3, 300)}
    ann = player("ann")
    browser = logged_in(ann)
    others = [player(f"friend{i}") for i in range(4)]
    answers = [
        browser.post(
            f"/u/{other.username}/challenge/",
            {"ruleset": "classic", "players": 2, "timer": 15, "kind": "rated"},
        )
        for other in others
    ]
    assert [a.status_code for a in answers] == [302, 302, 302, 429]
    assert "Too many challenges" in answers[-1].content.decode()
    assert Challenge.objects.filter(challenger=ann).count() == 3


def test_a_refused_challenge_form_says_why_next_to_the_form():
    ann, ben = player("ann"), player("ben")
    do_block(ben.pk, ann.pk)
    page = logged_in(ann).post(
        "/u/ben/challenge/", {"ruleset": "classic", "players": 2, "timer": 15, "kind": "rated"}
    )
    assert page.status_code == 403
    assert "ben doesn&#x27;t take challenges from you" in page.content.decode()
    staked = logged_in(ann).post(
        "/u/nobody/challenge/", {"ruleset": "classic", "players": 2, "timer": 15, "kind": "staked"}
    )
    assert staked.status_code == 400 and "how many coins" in staked.content.decode()


# --- answers


def test_accepting_a_challenge_seats_both_in_a_new_room_that_starts(monkeypatch, pushed):
    sent = told(monkeypatch)
    ann, ben = player("ann"), player("ben")
    with pushed():
        made = challenge(ann, ben, timer_seconds=10)
    assert "ann challenges you" in sent[ben.pk][0] and "Accept" in sent[ben.pk][0]
    with pushed():
        game = do_accept(member(ben), made.pk)
    assert game.status == Game.Status.PLAYING and game.timer_seconds == 10 and game.rated
    assert {s.user_id for s in game.seats.all()} == {ann.pk, ben.pk}
    assert "ben accepted your challenge" in sent[ann.pk][-1] and game.pk in sent[ann.pk][-1]
    assert do_accept(member(ben), made.pk).pk == game.pk  # a second press: the same room
    with pytest.raises(NotAllowed, match="not for you"):
        do_accept(member(ann), made.pk)


def test_an_unrated_challenge_counts_on_no_board_and_moves_no_rating():
    ann, ben = player("ann"), player("ben")
    game = do_accept(member(ben), challenge(ann, ben, rated=False).pk)
    assert not game.rated
    actions.do_resign(game.pk, member(ann))
    results = Result.objects.filter(round__game=game)
    assert results.count() == 2 and not any(r.counted or r.points for r in results)
    assert all(r.rating_change is None for r in results)
    assert not Rating.objects.filter(user__in=[ann, ben]).exclude(games=0).exists()
    assert not Standing.objects.filter(user__in=[ann, ben]).exists()
    assert {o.not_counted for o in round_outcomes(game.pk, 1).values()} == {UNRATED}
    page = logged_in(ben).get(game.get_absolute_url()).content.decode()
    assert UNRATED in page


def test_a_rated_challenge_counts_and_rates():
    ann, ben = player("ann"), player("ben")
    game = do_accept(member(ben), challenge(ann, ben).pk)
    actions.do_resign(game.pk, member(ann))
    winner = Result.objects.get(round__game=game, user=ben)
    assert winner.counted and winner.points == 10 and winner.rating_change


def test_a_four_seat_challenge_waits_and_the_host_invites_a_friend_they_follow():
    ann, ben, cat, dan = player("ann"), player("ben"), player("cat"), player("dan")
    game = do_accept(member(ben), challenge(ann, ben, seats=4).pk)
    assert game.status == Game.Status.OPEN and game.owner_id == ann.pk
    with pytest.raises(NotAllowed, match="follow cat first"):
        do_invite(member(ann), game.pk, "cat")
    with pytest.raises(NotAllowed, match="Only the table's host"):
        do_invite(member(ben), game.pk, "cat")
    do_follow(ann.pk, cat.pk)
    page = (
        logged_in(ann).get(f"/challenges/{Challenge.objects.get(room=game).pk}/").content.decode()
    )
    assert "Invite more friends" in page and 'href="/u/cat/challenge/"' in page
    form = logged_in(ann).get("/u/cat/challenge/").content.decode()
    assert "Or invite cat to your table" in form
    invitation = do_invite(member(ann), game.pk, "cat")
    assert do_accept(member(cat), invitation.pk).pk == game.pk
    seats = Seat.objects.filter(game=game)
    assert [s.user_id for s in seats] == [ann.pk, ben.pk, cat.pk, None]
    do_follow(ann.pk, dan.pk)
    late = do_invite(member(ann), game.pk, "dan")
    actions.do_set_seat(game.pk, member(ann), 3, "computer")
    actions.do_start(game.pk, member(ann))
    with pytest.raises(Conflict, match="started"):
        do_accept(member(dan), late.pk)


def test_declining_tells_the_challenger_and_the_challenge_cant_be_accepted_after(
    monkeypatch, pushed
):
    sent = told(monkeypatch)
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    with pushed():
        do_decline(member(ben), made.pk)
    assert "ben declined your challenge" in sent[ann.pk][-1]
    assert f'data-notice="challenge-{made.pk}"' in sent[ben.pk][-1]  # in place of the offer
    with pytest.raises(Conflict, match="declined"):
        do_accept(member(ben), made.pk)
    assert not Game.objects.exists()


def test_a_withdrawn_challenge_cant_be_accepted():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    with pytest.raises(NotAllowed):
        do_withdraw(member(ben), made.pk)
    do_withdraw(member(ann), made.pk)
    with pytest.raises(Conflict, match="ann withdrew"):
        do_accept(member(ben), made.pk)


def test_a_challenge_lapses_after_two_minutes_and_cant_be_accepted_then(monkeypatch, pushed):
    sent = told(monkeypatch)
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    assert made.lapses - made.created <= timedelta(minutes=2, seconds=1)
    Challenge.objects.filter(pk=made.pk).update(lapses=timezone.now())
    with pytest.raises(Conflict, match="lapsed"):  # before the sweep
        do_accept(member(ben), made.pk)
    with pushed():
        assert lapse_due() == 1
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.LAPSED
    assert "Your challenge to ben lapsed" in sent[ann.pk][-1]
    with pytest.raises(Conflict, match="lapsed"):
        do_accept(member(ben), made.pk)
    assert lapse_due() == 0


def test_a_block_made_after_the_challenge_refuses_the_accept():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    do_block(ann.pk, ben.pk)
    with pytest.raises(NotAllowed, match="one of you has blocked the other"):
        do_accept(member(ben), made.pk)
    assert not Game.objects.exists()


def test_a_ban_landing_after_the_challenge_refuses_the_accept():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    ban(ann)
    with pytest.raises(Conflict, match="ann is banned"):
        do_accept(member(ben), made.pk)


# --- staked challenges


def test_a_staked_challenge_accepted_escrows_both_stakes_and_starts():
    ann, ben = player("ann"), player("ben")
    before = balance_of(ann.pk), balance_of(ben.pk)
    made = challenge(ann, ben, ruleset="twodice", stake="200")
    assert (balance_of(ann.pk), balance_of(ben.pk)) == before  # nothing moves at the challenge
    game = do_accept(member(ben), made.pk)
    assert game.status == Game.Status.PLAYING and game.stake == 200 and game.rated
    assert (balance_of(ann.pk), balance_of(ben.pk)) == (before[0] - 200, before[1] - 200)
    actions.do_resign(game.pk, member(ann))
    assert balance_of(ben.pk) > before[1]


def test_a_staked_challenge_whose_challenger_plays_for_coins_elsewhere_is_refused():
    ann, ben, cat = player("ann"), player("ben"), player("cat")
    made = challenge(ann, ben, ruleset="twodice", stake="300")
    room = do_create_staked_room(member(ann), "twodice", 500)
    do_join_staked_room(member(cat), room.pk)
    with pytest.raises(Conflict, match="ann is playing for coins elsewhere"):
        do_accept(member(ben), made.pk)
    actions.do_resign(room.pk, member(cat))  # that game over: the challenge can start
    assert do_accept(member(ben), made.pk).stake == 300


def test_a_staked_challenge_beyond_the_accepting_wallet_is_refused_and_moves_nothing():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben, ruleset="twodice", stake="900")
    spent = do_create_staked_room(member(ben), "twodice", 400)  # ben has 600 left, and a room
    do_cancel_staked_room(member(ben), spent.pk)
    Challenge.objects.filter(pk=made.pk).update(stake=1500)  # more than ben's wallet holds
    before = balance_of(ann.pk), balance_of(ben.pk)
    with pytest.raises(Conflict, match=r"1,500 coins each\. You have 1,000 coins"):
        do_accept(member(ben), made.pk)
    assert (balance_of(ann.pk), balance_of(ben.pk)) == before
    assert not Game.objects.filter(stake=1500).exists()


def test_a_staked_challenge_beyond_the_challengers_wallet_is_refused_at_once():
    ann, ben = player("ann"), player("ben")
    with pytest.raises(GameError, match="for 1,200 coins each: You have 1,000 coins"):
        challenge(ann, ben, ruleset="twodice", stake="1200")
    assert not Challenge.objects.exists()


def test_a_staked_challenge_between_accounts_of_one_browser_is_refused():
    ann, ben = player("ann"), player("ben")
    browsers.record("browser-1", ann.pk)
    browsers.record("browser-1", ben.pk)
    with pytest.raises(NotAllowed, match="same browser"):
        challenge(ann, ben, ruleset="twodice", stake="100")
    challenge(ann, ben)  # a free table is fine


# --- pages


def test_the_challenged_player_sees_the_offer_on_any_page_they_load():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    page = logged_in(ben).get("/leaderboard/").content.decode()
    assert 'id="account-notices"' in page and "ann challenges you" in page
    assert f"/challenges/{made.pk}/accept" in page
    assert 'ws-connect="/ws/account/"' in page
    home = logged_in(ben).get("/").content.decode()
    assert home.count("ws-connect=") == 1  # the online socket is the account's there


def test_accept_on_a_notice_sends_the_page_to_the_room_and_a_refusal_stays_in_the_notice():
    ann, ben = player("ann"), player("ben")
    made = challenge(ann, ben)
    browser = logged_in(ben)
    answer = browser.post(f"/challenges/{made.pk}/accept", headers={"HX-Request": "true"})
    game = Game.objects.get()
    assert answer.status_code == 204 and answer["HX-Redirect"] == game.get_absolute_url()
    again = browser.post(f"/challenges/{made.pk}/decline", headers={"HX-Request": "true"})
    assert again.status_code == 409 and "accepted already" in again.content.decode()
    assert "data-challenge-notice" in again.content.decode()


def test_the_profile_and_the_friends_page_offer_a_challenge_and_list_both_sides():
    ann, ben = player("ann"), player("ben")
    profile = logged_in(ann).get("/u/ben/").content.decode()
    assert 'href="/u/ben/challenge/"' in profile
    do_follow(ann.pk, ben.pk)
    challenge(ann, ben)
    mine = logged_in(ann).get("/friends/").content.decode()
    assert 'data-testid="friend-challenge"' in mine and "waiting for an answer" in mine
    theirs = logged_in(ben).get("/friends/").content.decode()
    assert "ann: Classic, 2 players" in theirs and 'data-testid="challenge-for-me"' in theirs
