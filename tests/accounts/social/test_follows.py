"""Following and blocking a player from their profile, the Friends page and a finished game's panel
(accounts/social, accounts/web/social_views.py, games/reads/friends.py)."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.social import blocks, follows
from accounts.social.errors import SocialError
from accounts.social.models import Block, Follow
from games import actions
from games.core import presence
from games.models import Game
from tests.factories import accounts, member, room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_redis(redis_client):
    """Each test starts with no rate-limit counters and nobody online."""


def client_for(user, csrf=False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def shown(response) -> str:
    return html.unescape(response.content.decode())


def public_game(users, ratings=()) -> Game:
    game = room(users)
    Game.objects.filter(pk=game.pk).update(public=True)
    for index, seat in enumerate(game.seats.order_by("index")):
        seat.rating = ratings[index] if index < len(ratings) else None  # None: not rated
        seat.save(update_fields=["rating"])
    return Game.objects.get(pk=game.pk)


def test_follow_from_a_profile_then_unfollow():
    ann, bob = accounts("ann", "bob")
    client = client_for(ann)
    assert 'data-testid="follow"' in shown(client.get("/u/bob/"))

    page = client.post("/u/bob/follow/", follow=True)
    assert "You follow bob now" in shown(page)
    assert 'data-testid="unfollow"' in shown(page)  # the profile now offers the undoing
    assert follows.do_follow(ann.pk, bob.pk) is False  # once only

    page = client.post("/u/bob/unfollow/", follow=True)
    assert "You no longer follow bob." in shown(page)
    assert not Follow.objects.exists()


def test_follow_of_a_banned_or_missing_player_is_refused_with_a_sentence():
    ann, cat = accounts("ann", "cat")
    User.objects.filter(pk=cat.pk).update(banned_at=timezone.now(), ban_reason="Spam")
    client = client_for(ann)

    page = client.post("/u/cat/follow/", follow=True)
    assert "cat is banned: you can't follow them." in shown(page)
    page = client.post("/u/nobody/follow/", {"next": "/friends/"}, follow=True)
    assert "There is no player called nobody." in shown(page)
    page = client.post("/u/cat/block/", follow=True)
    assert "cat is banned: you can't block them." in shown(page)
    assert not Follow.objects.exists() and not Block.objects.exists()
    with pytest.raises(SocialError, match="yourself"):
        follows.do_follow(ann.pk, ann.pk)


def test_follow_and_block_are_post_only_with_csrf_and_need_an_account():
    ann, _ = accounts("ann", "bob")
    assert client_for(ann).get("/u/bob/follow/").status_code == 405
    assert client_for(ann, csrf=True).post("/u/bob/block/").status_code == 403  # no CSRF token
    anonymous = Client().post("/u/bob/follow/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_follow_presses_are_rate_limited_per_account(settings):
    settings.LUDOPAT_RATES = {"follow": (3, 300)}
    ann, *others = accounts("ann", "b1", "b2", "b3", "b4")
    client = client_for(ann)
    for other in others[:3]:
        client.post(f"/u/{other.username}/follow/")
    page = client.post("/u/b4/follow/", follow=True)
    assert "You're following and unfollowing too fast" in shown(page)
    assert Follow.objects.filter(follower=ann).count() == 3


def test_a_blocked_player_cannot_follow_and_a_block_ends_follows_both_ways():
    ann, bob = accounts("ann", "bob")
    follows.do_follow(ann.pk, bob.pk)
    follows.do_follow(bob.pk, ann.pk)

    page = client_for(ann).post("/u/bob/block/", follow=True)
    assert "You blocked bob" in shown(page)
    assert 'data-testid="unblock"' in shown(page)
    assert not Follow.objects.exists()

    page = client_for(bob).post("/u/ann/follow/", follow=True)
    assert "You can't follow this player." in shown(page)
    assert 'data-testid="follow"' not in shown(client_for(bob).get("/u/ann/"))  # none offered
    assert not Follow.objects.exists()


def test_friends_page_lists_followed_players_online_first_with_their_game_to_watch(redis_client):
    ann, bob, cat, dan = accounts("ann", "bob", "cat", "dan")
    for other in (bob, cat, dan):
        follows.do_follow(ann.pk, other.pk)
    table = public_game([cat, bob])
    redis_client.delete(f"ludopat:game:{table.pk}:seats")  # bob's join counted him there: gone now
    presence.touch(table.pk, [table.seats.get(user=cat).pk], "cat-page")  # cat is at the table
    private = room([dan, bob])  # a private room: its address is its invitation, never shown

    page = shown(client_for(ann).get("/friends/"))
    # cat (online at the table) comes first; bob and dan are offline, by name.
    order = [page.index(f'data-name="{n}"') for n in ("cat", "bob", "dan")]
    assert order == sorted(order)
    assert page.count(">online<") == 1
    assert f'href="/games/{table.pk}/"' in page  # both cat and bob play it: watch either
    assert private.pk not in page


def test_friends_page_empty_state_says_how_to_follow():
    (ann,) = accounts("ann")
    page = shown(client_for(ann).get("/friends/"))
    assert "You don't follow anyone yet." in page
    assert "press <strong>Follow</strong>" in page
    assert "You haven't blocked anyone." in page
    assert Client().get("/friends/").status_code == 302  # an account's page


def test_blocked_players_are_listed_on_the_friends_page_and_can_be_unblocked():
    ann, bob = accounts("ann", "bob")
    blocks.do_block(ann.pk, bob.pk)
    client = client_for(ann)
    assert 'data-testid="unblock-bob"' in shown(client.get("/friends/"))

    page = client.post("/u/bob/unblock/", {"next": "/friends/"}, follow=True)
    assert "You unblocked bob." in shown(page)
    assert "You haven't blocked anyone." in shown(page)


def test_follow_from_a_finished_games_result_panel():
    ann, bob, cat = accounts("ann", "bob", "cat")
    game = room([ann, bob, cat])
    blocks.do_block(cat.pk, ann.pk)
    actions.do_resign(game.pk, member(bob))
    actions.do_resign(game.pk, member(cat))
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    client = client_for(ann)

    board = shown(client.get(f"/games/{game.pk}/"))
    assert (
        f"/games/{game.pk}/players-to-follow" in board
    )  # the result panel loads the viewer's part
    panel = shown(client.get(f"/games/{game.pk}/players-to-follow"))
    assert 'data-testid="follow-bob"' in panel
    assert "follow-cat" not in panel  # cat blocked ann: no follow offered

    answer = client.post("/u/bob/follow/", {"game": game.pk}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert "You follow bob now" in shown(answer)
    assert 'data-testid="unfollow-bob"' in shown(answer)  # the panel again, pressed
    assert follows.do_follow(ann.pk, bob.pk) is False
    assert shown(Client().get(f"/games/{game.pk}/players-to-follow")) == ""  # nobody to follow for
