"""Play now and the public tables it seats: who sits together (rule set and options, seats, ratings,
blocks, browsers), what a leaver's next press waits, computers in empty seats (unrated), and that a
finished table rates its players and credits 10/6/3/0 against people, a leaver included."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.social.models import Block
from accounts.users.browsers import BrowserAccount
from games import actions
from games.core.errors import GameError
from games.models import Game, Seat
from games.tables import sweeper
from games.tables.models import TableWait
from games.tables.waiting import do_play_now, do_stop_waiting
from leaderboard.models import Board, Period, Rating, Result, Standing
from tests.factories import accounts, member

pytestmark = pytest.mark.django_db


def press(user, ruleset="classic", seats=4, timer=15, options=None, computers=False):
    return do_play_now(member(user), ruleset, seats, timer, options or {}, computers)


def table_of(user) -> Game:
    return Game.objects.get(public=True, seats__user=user)


def rate(user, ruleset, value):
    Rating.objects.create(
        user=user, ruleset=ruleset, mu=25 + (value - 1500) / 60, sigma=4, value=value, games=30
    )


def resign(game, user):
    return actions.do_resign(game.pk, member(user))


def people_points(user, ruleset="classic") -> int:
    row = Standing.objects.filter(
        user=user, ruleset=ruleset, board=Board.PEOPLE, period=Period.ALL
    ).first()
    return row.points if row else 0


def test_play_now_seats_a_four_table_when_the_fourth_player_presses():
    people = accounts("a", "b", "c", "d")
    for user in people[:3]:
        assert press(user).status == TableWait.Status.WAITING
    assert not Game.objects.filter(public=True).exists()
    entry = press(people[3])
    assert entry.status == TableWait.Status.SEATED
    game = entry.game
    assert game.public and game.rated and game.status == Game.Status.PLAYING
    assert game.owner_id is None and game.timer_seconds == 15
    seats = list(game.seats.order_by("index"))
    assert [s.user for s in seats] == people  # the longest waiting first
    assert all(s.kind == Seat.Kind.HUMAN for s in seats)
    assert set(TableWait.objects.values_list("status", "game")) == {("seated", game.pk)}


def test_play_now_seats_only_the_same_rules_options_and_seat_count():
    a, b, c, d, e = accounts("a", "b", "c", "d", "e")
    press(a, "places", 2, options={"pairs": True})
    press(b, "places", 2)  # no pairs: another table
    press(c, "places", 4, options={"pairs": True})  # four seats: another table
    press(d, "places", 2, timer=30, options={"pairs": True})  # another timer
    assert TableWait.objects.filter(status="waiting").count() == 4
    entry = press(e, "places", 2, options={"pairs": True})
    assert entry.status == "seated"
    assert {s.user for s in entry.game.seats.all()} == {a, e}
    assert entry.game.options["pairs"] is True


def test_play_now_refuses_seat_counts_and_options_a_rule_set_lacks():
    (a,) = accounts("a")
    with pytest.raises(GameError, match="Duel is played by 2 players"):
        press(a, "duel", 4)
    with pytest.raises(GameError, match="2 or 4 seats"):
        press(a, "classic", 3)
    with pytest.raises(GameError, match="no option 'pairs'"):
        press(a, "classic", 4, options={"pairs": True})
    with pytest.raises(GameError, match="10, 15 or 30 seconds"):
        press(a, "classic", 4, timer=0)
    assert press(a, "twodice", 2).status == "waiting"


def test_play_now_never_seats_a_blocked_pair_together():
    a, b, c = accounts("a", "b", "c")
    Block.objects.create(blocker=b, blocked=a)
    press(a, "duel", 2)
    assert press(b, "duel", 2).status == "waiting"  # b blocked a: never at one table
    assert press(c, "duel", 2).status == "seated"
    assert {s.user for s in table_of(c).seats.all()} == {a, c}
    assert TableWait.objects.get(user=b).status == "waiting"


def test_play_now_never_seats_two_accounts_of_one_browser_together():
    a, b, c = accounts("a", "b", "c")
    now = timezone.now()
    BrowserAccount.objects.create(browser="one-browser", user=a, last_seen=now)
    BrowserAccount.objects.create(browser="one-browser", user=b, last_seen=now)
    press(a, "twodice", 2)
    assert press(b, "twodice", 2).status == "waiting"
    assert press(c, "twodice", 2).status == "seated"
    assert {s.user for s in table_of(c).seats.all()} == {a, c}


def test_play_now_looks_near_the_rating_first_and_widens_as_rated_quick_match_does():
    a, b = accounts("a", "b")
    rate(a, "duel", 1500)
    rate(b, "duel", 1800)
    press(a, "duel", 2)
    assert press(b, "duel", 2).status == "waiting"  # 300 apart: beyond ±100 at the press
    start = TableWait.objects.order_by("created").last().created
    assert sweeper.sweep(start + timedelta(seconds=5)) == []  # ±200: still apart
    (game,) = sweeper.sweep(start + timedelta(seconds=10))  # ±300 for both: seated
    assert {s.user for s in game.seats.all()} == {a, b}


def test_play_now_escalates_a_leavers_next_wait_and_the_waiting_screen_says_so(client):
    a, b, c, d = accounts("a", "b", "c", "d")
    press(a, "duel", 2)
    game = press(b, "duel", 2).game
    resign(game, a)  # a leaves the table in play
    assert press(a, "duel", 2).hold_seconds == 15
    client.force_login(a)
    page = client.get("/play-now/waiting").content.decode()
    assert 'data-testid="play-now-hold"' in page and "<strong>15 s</strong> longer" in page
    # Held: c pressing now is not seated with a; once the hold is over, the sweep seats them.
    assert press(c, "duel", 2).status == "waiting"
    ready = TableWait.objects.get(user=a, status="waiting").ready
    TableWait.objects.update(seen=ready + timedelta(seconds=15))
    # (a lost a rated duel: the ranges take 15 s to reach across the gap)
    (table,) = sweeper.sweep(ready + timedelta(seconds=15))
    assert {s.user for s in table.seats.all()} == {a, c}
    resign(table, a)  # a second table left: the next wait doubles
    assert press(a, "duel", 2).hold_seconds == 30
    assert press(d, "duel", 2).hold_seconds == 0  # who never left waits nothing


def test_public_table_filled_with_computers_after_30_s_counts_for_no_rating_or_people_points():
    a, b, c = accounts("a", "b", "c")
    press(a, "classic", 4, computers=True)
    press(b, "classic", 4)  # did not ask for computers: keeps waiting for people
    press(c, "classic", 2, computers=True)
    created = TableWait.objects.get(user=a).created
    assert sweeper.sweep(created + timedelta(seconds=29)) == []
    TableWait.objects.update(seen=created + timedelta(seconds=31))
    opened = {
        g.seats.filter(kind="human").get().user: g
        for g in sweeper.sweep(created + timedelta(seconds=31))
    }
    kinds = sorted(opened[a].seats.values_list("kind", flat=True))
    assert kinds == ["computer", "computer", "computer", "human"]
    assert not opened[a].rated and not opened[c].rated  # a computer at each table
    assert TableWait.objects.get(user=b).status == "waiting"
    game = opened[c]  # c and a computer: c gives up, the computer wins
    actions.do_resign(game.pk, member(c))
    result = Result.objects.get(user=c)
    assert result.place == 2 and not result.against_people and result.rating_change is None
    assert people_points(c) == 0 and not Rating.objects.filter(user=c, games__gt=0).exists()


def finish_by_resigning(game, *order):
    """The players resign in `order`; the last left wins (the first to resign places last)."""
    for user in order:
        resign(game, user)
    game.refresh_from_db()
    return game


def test_public_table_ratings_and_10_6_3_0_people_points_land():
    people = accounts("a", "b", "c", "d")
    for user in people[:3]:
        press(user)
    game = press(people[3]).game
    _a, b, c, d = people
    game = finish_by_resigning(game, d, c, b)  # a wins, b second, c third, d last
    assert game.status == Game.Status.FINISHED
    assert [people_points(u) for u in people] == [10, 6, 3, 0]
    results = {r.user: r for r in Result.objects.filter(round__game=game)}
    assert all(r.against_people and r.counted for r in results.values())
    changes = [results[u].rating_change for u in people]
    assert all(change is not None for change in changes)
    assert changes[0] > 0 > changes[3]


def test_public_table_leaver_is_played_by_the_computer_placed_last_and_still_counts():
    people = accounts("a", "b", "c", "d")
    for user in people[:3]:
        press(user)
    game = press(people[3]).game
    a, b, c, d = people
    actions.do_leave(game.pk, member(b))  # b leaves in play
    seat = game.seats.get(user=b)
    assert seat.resigned and seat.bot_controlled  # the computer plays b's seat on
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    game = finish_by_resigning(game, d, c)  # a is the last still playing
    places = {r.user: r.place for r in Result.objects.filter(round__game=game)}
    assert places == {a: 1, c: 2, d: 3, b: 4}  # the leaver after everyone still playing
    assert [people_points(u) for u in (a, c, d, b)] == [10, 6, 3, 0]  # it counts for everyone
    assert Result.objects.filter(round__game=game, rating_change__isnull=False).count() == 4


def test_play_now_one_table_at_a_time_and_not_while_seated_at_a_live_table():
    a, b, c = accounts("a", "b", "c")
    first = press(a, "duel", 2)
    assert press(a, "duel", 2).pk == first.pk  # pressed again: the same place in the list
    with pytest.raises(GameError, match="waiting for another table"):
        press(a, "twodice", 2)
    game = press(b, "duel", 2).game
    with pytest.raises(GameError, match="seated at a game between people"):
        press(a, "classic", 4)
    resign(game, b)  # the table is over: a may press again
    assert press(a, "classic", 4).status == "waiting"
    assert TableWait.objects.filter(user=c).count() == 0


def test_play_now_entry_of_a_player_seated_elsewhere_meanwhile_stops():
    a, b, c = accounts("a", "b", "c")
    press(a, "duel", 2)
    room = actions.create_game(
        member(a),
        "friends",
        "twodice",
        {},
        [actions.SeatSpec(Seat.Kind.HUMAN), actions.SeatSpec(Seat.Kind.OPEN)],
        actions.TimerSpec(10),
    )
    actions.do_join(room.pk, member(c))
    actions.do_start(room.pk, member(a))  # a timed room with c: a plays there now
    assert press(b, "duel", 2).status == "waiting"  # never seated with a, who is busy
    entry = TableWait.objects.get(user=a)
    assert entry.status == "stopped" and "started another game" in entry.reason


def test_play_now_stop_waiting_and_the_unattended_sweep():
    a, b = accounts("a", "b")
    press(a, "duel", 2)
    assert do_stop_waiting(member(a)).status == "stopped"
    assert do_stop_waiting(member(a)) is None
    press(b, "duel", 2)
    created = TableWait.objects.get(user=b, status="waiting").created
    sweeper.sweep(created + timedelta(seconds=31))  # nobody polled its screen for 30 s
    assert TableWait.objects.get(user=b).reason.startswith("You left the waiting screen")


def test_public_table_has_no_new_round():
    a, b = accounts("a", "b")
    press(a, "duel", 2)
    game = press(b, "duel", 2).game
    resign(game, a)
    with pytest.raises(GameError, match="public table is one round"):
        actions.do_new_round(game.pk, member(b))


def test_play_now_entry_of_a_player_banned_while_waiting_stops_and_seats_nobody_with_them():
    a, b = accounts("a", "b")
    press(a, "duel", 2)
    a.banned_at = timezone.now()
    a.ban_reason = "spam"
    a.save(update_fields=["banned_at", "ban_reason"])
    assert press(b, "duel", 2).status == "waiting"
    entry = TableWait.objects.get(user=a)
    assert entry.status == "stopped" and entry.reason
    with pytest.raises(GameError):
        press(a, "duel", 2)  # a banned account can't press
