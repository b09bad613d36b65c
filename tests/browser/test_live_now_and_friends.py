"""Live now and the Friends page in Chromium: a public table listed on a desktop and a 390 px phone and
on the home page, opened as a spectator's board that follows a move; following players from their
profiles (the one online listed first on the Friends page) and from a finished game's result panel;
blocking from a profile. axe-checked in both schemes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games import actions
from games.models import Game
from tests.browser.conftest import PHONE, check_accessible
from tests.browser.play import live, log_in, version, wait_past
from tests.factories import everyone_here, make_user, member, room

pytestmark = pytest.mark.browser


def a_public_table() -> str:
    """ann (1620) and bob (1580) at a public classic table in play, both at their seats."""
    ann, bob = make_user("ann"), make_user("bob")
    game = room([ann, bob])
    Game.objects.filter(pk=game.pk).update(public=True)
    for seat, rating in zip(game.seats.order_by("index"), (1620, 1580), strict=True):
        seat.rating = rating
        seat.save(update_fields=["rating"])
    everyone_here(game)
    return game.pk


def roll_for_whoever_is_to_play(game_id: str) -> None:
    game = Game.objects.get(pk=game_id)
    everyone_here(game)  # an untimed room waits for absent players
    state = game.state
    to_play = state["players"][state["turn"]]
    seat = next(s for s in game.seats.select_related("user") if s.colours == to_play)
    actions.do_roll(game_id, member(seat.user), None)


def fits_the_screen(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width} px wide"


def test_live_now_lists_a_public_table_and_its_spectators_board_follows_a_move(new_page, server):
    game_id = server(a_public_table)
    phone = new_page(PHONE)
    phone.goto("/live/")
    table = phone.get_by_test_id("live-table")
    expect(table).to_have_count(1)
    expect(table).to_contain_text("ann")
    expect(table).to_contain_text("1620")
    expect(table).to_contain_text("0/4 home")
    expect(table).to_contain_text("mean rating 1600")
    fits_the_screen(phone)

    home = new_page()
    home.goto("/")
    expect(home.get_by_test_id("live-top-watch")).to_have_text("Watch Classic: ann v bob")

    watcher = new_page()
    watcher.goto("/live/")
    expect(watcher.get_by_test_id("live-watch")).to_have_text("Watch Classic: ann v bob")
    watcher.get_by_test_id("live-watch").click()
    expect(live(watcher)).to_have_class(re.compile(r"(^|\s)is-watcher(\s|$)"))
    expect(watcher.get_by_test_id("roll")).to_have_count(0)  # a spectator's board
    before = version(watcher)
    server(roll_for_whoever_is_to_play, game_id)
    wait_past(watcher, before)  # pushed over its socket, no reload
    expect(watcher.get_by_test_id("move-log")).to_contain_text("rolled")
    check_accessible(watcher, "a spectator's board after a move")


def people() -> None:
    for name in ("me", "bob", "cat"):
        make_user(name)


def test_follow_from_profiles_friends_page_online_first_then_block(new_page, server):
    server(people)
    me, bob = new_page(), new_page()
    log_in(me, "me")
    log_in(bob, "bob")
    bob.goto("/")  # bob's home page keeps him online

    me.goto("/friends/")
    expect(me.get_by_test_id("no-friends")).to_contain_text("press Follow")
    for name in ("cat", "bob"):
        me.goto(f"/u/{name}/")
        me.get_by_test_id("follow").click()
        expect(me.get_by_role("status")).to_contain_text(f"You follow {name} now")
        expect(me.get_by_test_id("unfollow")).to_be_visible()

    me.goto("/friends/")
    friends = me.get_by_test_id("friend")
    expect(friends).to_have_count(2)
    expect(friends.nth(0)).to_have_attribute("data-name", "bob")  # online first
    expect(friends.nth(0).get_by_test_id("friend-presence")).to_have_text("online")
    expect(friends.nth(1).get_by_test_id("friend-presence")).to_have_text("offline")
    me.set_viewport_size(PHONE)
    me.reload()
    fits_the_screen(me)
    me.set_viewport_size({"width": 1280, "height": 800})

    me.goto("/u/cat/")
    me.once("dialog", lambda dialog: dialog.accept())  # "Block cat? ..."
    me.get_by_test_id("block").click()
    expect(me.get_by_role("status")).to_contain_text("You blocked cat")
    expect(me.get_by_test_id("unblock")).to_be_visible()
    expect(me.get_by_test_id("follow")).to_have_count(0)  # a block ended the follow
    check_accessible(me, "a blocked player's profile")
    me.goto("/friends/")
    expect(me.get_by_test_id("friend")).to_have_count(1)
    expect(me.get_by_test_id("blocked-player")).to_contain_text("cat")


def a_room_of_two() -> str:
    ann, bob = make_user("ann"), make_user("bob")
    return room([ann, bob]).pk


def bob_resigns(game_id: str) -> None:
    bob = Game.objects.get(pk=game_id).seats.get(user__username="bob").user
    actions.do_resign(game_id, member(bob))


def test_follow_from_a_finished_games_result_panel(new_page, server):
    game_id = server(a_room_of_two)
    ann = new_page()
    log_in(ann, "ann")
    ann.goto(f"/games/{game_id}/")
    server(bob_resigns, game_id)
    expect(live(ann)).to_have_attribute("data-status", "finished")
    ann.get_by_test_id("follow-bob").click()  # loaded into the pushed result panel for ann
    expect(ann.get_by_test_id("follow-notice")).to_contain_text("You follow bob now")
    expect(ann.get_by_test_id("unfollow-bob")).to_be_visible()
    check_accessible(ann, "the result panel after a follow")
    ann.goto("/friends/")
    expect(ann.get_by_test_id("friend")).to_have_attribute("data-name", "bob")
