"""Staked rooms: creating, joining, cancelling, settling and every refusal, through the game actions.

Every test ends with the ledger's invariants (tests.ledger_checks), including the staked-game ones:
an open room's escrow holds one stake, a game in play two, a finished or cancelled one none, closed once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.ledger.adjustments import adjust_coins
from accounts.ledger.errors import NotEnoughCoins
from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerEntry, LedgerTransaction
from accounts.users import browsers
from games import actions
from games.actions.rounds import finish_round
from games.core.errors import Conflict, GameError, NotAllowed
from games.models import Game, Seat
from games.staking import settlement
from games.staking.lobby_reads import staked_records
from games.staking.quick import do_quick_match
from games.staking.rooms import do_cancel_staked_room, do_join_staked_room
from games.staking.sweeper import _absent_key, withdraw_unattended
from tests.factories import seasoned_account, staked_room
from tests.games.webplay import anon, fresh, member, play_until
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True


def veteran(django_user_model, name: str):
    """An account past the new-player limit (a day old, enough finished games)."""
    return member(seasoned_account(name))


@pytest.fixture
def host(django_user_model, settings):
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0
    return veteran(django_user_model, "hostess")


@pytest.fixture
def guest(django_user_model):
    return veteran(django_user_model, "guesto")


@pytest.fixture
def third(django_user_model):
    return veteran(django_user_model, "thirdy")


def coins(*actors) -> list[int]:
    return [balance_of(a.user_id) for a in actors]


def moved() -> int:
    return LedgerTransaction.objects.count()


def room(host, stake=100, **kwargs) -> Game:
    return staked_room(host, stake, **kwargs)


def test_opening_a_room_puts_the_host_stake_in_escrow(host):
    game = room(host, 250)
    assert (game.stake, game.status, game.timer_seconds, game.mode) == (250, "open", 15, "friends")
    assert coins(host) == [750]
    assert "Waiting for an opponent to stake 250 coins" in fresh(game).message


def test_joining_stakes_the_same_and_starts_the_game(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    game = fresh(game)
    assert game.status == Game.Status.PLAYING
    assert [s.user_id for s in game.seats.all()] == [host.user_id, guest.user_id]
    assert coins(host, guest) == [900, 900]
    assert LedgerEntry.objects.get(account__game=game, amount__gt=0, transaction__kind="stake",
                                   account__kind="escrow", transaction__entries__account__user_id=guest.user_id).amount == 100  # fmt: skip


def test_a_resignation_pays_the_winner_the_pot_less_the_rake(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    actions.do_resign(game.pk, guest)
    assert fresh(game).status == Game.Status.FINISHED
    assert coins(host, guest) == [1080, 900]
    assert LedgerEntry.objects.get(account__kind="house").amount == 20


def test_the_lobby_counts_staked_wins_and_losses_and_not_refunded_games(host, guest):
    won = room(host, 100)
    do_join_staked_room(guest, won.pk)
    actions.do_resign(won.pk, guest)  # host wins
    voided = room(host, 100)
    do_join_staked_room(guest, voided.pk)
    with transaction.atomic():
        game = actions.lock_game(voided.pk)
        finish_round(game, actions.seats_in(game), [], "void")  # stakes back: neither won
        game.save()
    records = staked_records({host.user_id, guest.user_id})
    assert records == {host.user_id: (1, 0), guest.user_id: (0, 1)}


@pytest.mark.slow  # a whole game, action by action (about 20 s): make test, not test-fast
def test_a_game_played_to_the_end_pays_the_winner_once(host, guest):
    game = room(host, 50)
    do_join_staked_room(guest, game.pk)
    by_seat = {0: host, 1: guest}
    game = play_until(game, lambda seat: by_seat[seat.index], lambda g: g.is_over, limit=4000)
    winner, loser = (host, guest) if game.result_places[0] == 0 else (guest, host)
    assert coins(winner, loser) == [1040, 950]
    assert LedgerTransaction.objects.filter(kind="payout", game=game).count() == 1


@pytest.mark.parametrize("how", ["void", "idle", "agreed"])
def test_a_round_that_counts_for_nobody_gives_both_stakes_back(host, guest, how):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    with transaction.atomic():
        game = actions.lock_game(game.pk)
        seats = actions.seats_in(game)
        assert finish_round(game, seats, [], how) == {0: 0, 1: 0}
        game.save()
    assert coins(host, guest) == [1000, 1000]
    assert LedgerTransaction.objects.filter(kind="refund", game=game).count() == 1


def test_finish_round_reports_coins_by_seat_and_never_settles_twice(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    with transaction.atomic():
        game = actions.lock_game(game.pk)
        seats = actions.seats_in(game)
        assert finish_round(game, seats, [1, 0], "resign") == {0: -100, 1: 80}
        # Settling again (any caller, any outcome) finds the escrow closed and moves nothing.
        assert settlement.settle_round(game, seats, [0, 1], "won") == {}
        game.save()
    assert coins(host, guest) == [900, 1080]


def test_the_host_may_cancel_before_anyone_joins(host, guest):
    game = room(host, 100)
    do_cancel_staked_room(host, game.pk)
    assert fresh(game).status == Game.Status.ABANDONED
    assert coins(host) == [1000]
    with pytest.raises(Conflict, match="closed"):
        do_join_staked_room(guest, game.pk)
    assert coins(guest) == [1000]


def test_no_cancel_once_the_game_is_on(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    with pytest.raises(Conflict, match="resign"):
        do_cancel_staked_room(host, game.pk)
    with pytest.raises(NotAllowed):
        do_cancel_staked_room(guest, game.pk)


# Refusals: a clear message and no coin moved


@pytest.mark.parametrize(
    "stake",
    ["-5", "0", "9", "10001", "99999999999999999999", "1e3", "0.5", "10abc", "١٠٠", "", " "],  # noqa: RUF001  look-alike digits are the input under test
)
def test_a_stake_must_be_a_whole_number_in_bounds(host, stake):
    before = moved()
    with pytest.raises(GameError, match="whole number of coins from 10 to 10,000"):
        room(host, stake)
    assert moved() == before and coins(host) == [1000]


def test_a_new_account_stakes_at_most_100(django_user_model):
    newbie = member(django_user_model.objects.create_user("newbie"))
    with pytest.raises(GameError, match="New accounts stake at most 100"):
        room(newbie, 101)
    assert coins(newbie) == [1000]
    room(newbie, 100)


def test_too_few_coins_to_open_or_join(host, guest):
    with pytest.raises(NotEnoughCoins, match="stake is 5,000 coins; you have 1,000"):
        room(host, 5000)
    game = room(host, 500)
    adjust_coins(guest.user_id, -600, "test: spent")
    before = moved()
    with pytest.raises(NotEnoughCoins, match="stake is 500 coins; you have 400"):
        do_join_staked_room(guest, game.pk)
    assert moved() == before and coins(guest) == [400]
    assert fresh(game).status == Game.Status.OPEN
    assert fresh(game).seats.filter(kind=Seat.Kind.OPEN).count() == 1


def test_refusals_to_join(host, guest, third, django_user_model):
    twin = veteran(django_user_model, "twin")
    browsers.record("one-browser", twin.user_id)
    browsers.record("one-browser", host.user_id)
    game = room(host, 100)
    before = moved()
    with pytest.raises(Conflict, match="your own room"):
        do_join_staked_room(host, game.pk)
    with pytest.raises(NotAllowed, match="same browser"):
        do_join_staked_room(twin, game.pk)
    with pytest.raises(NotAllowed, match="log in"):
        do_join_staked_room(anon(), game.pk)
    assert moved() == before
    do_join_staked_room(guest, game.pk)
    before = moved()
    with pytest.raises(Conflict, match="full"):
        do_join_staked_room(third, game.pk)
    actions.do_resign(game.pk, guest)
    with pytest.raises(Conflict, match="closed"):
        do_join_staked_room(third, game.pk)
    assert coins(third) == [1000]


def test_a_staked_room_cannot_be_entered_around_its_stake(host, guest):
    game = room(host, 100)
    with pytest.raises(Conflict, match="join it with its stake"):
        actions.do_join(game.pk, guest)
    with pytest.raises(Conflict, match="stakes the same coins"):
        actions.do_set_seat(game.pk, host, 1, Seat.Kind.COMPUTER)
    with pytest.raises(Conflict):
        actions.do_start(game.pk, host)
    assert fresh(game).status == Game.Status.OPEN and coins(host, guest) == [900, 1000]


def test_one_open_staked_room_per_player(host):
    room(host, 100)
    with pytest.raises(Conflict, match="You have an open staked room at 100 coins"):
        room(host, 50)
    assert coins(host) == [900]


def test_no_new_rounds_in_a_staked_room(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    actions.do_resign(game.pk, guest)
    with pytest.raises(Conflict, match="rematch"):
        actions.do_new_round(game.pk, host)


# Idempotency keys


def test_a_repeated_create_returns_the_first_room_and_stakes_once(host):
    first = room(host, 100, key="form-1")
    again = room(host, 100, key="form-1")
    assert again.pk == first.pk and coins(host) == [900]


def test_a_repeated_join_holds_one_stake(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk, key="join-1")
    assert do_join_staked_room(guest, game.pk, key="join-1").pk == game.pk
    assert do_join_staked_room(guest, game.pk, key="join-2").pk == game.pk  # seated already
    assert coins(guest) == [900]


# Quick match


def test_quick_match_pairs_with_the_longest_waiting_player(host, guest, third):
    first = do_quick_match(host, "100")
    assert first.status == Game.Status.OPEN and first.quick and coins(host) == [900]
    other_tier = do_quick_match(third, "50")
    assert other_tier.status == Game.Status.OPEN and other_tier.pk != first.pk
    paired = do_quick_match(guest, "100")
    assert paired.pk == first.pk and fresh(first).status == Game.Status.PLAYING


def test_quick_match_pairs_and_starts(host, guest):
    waiting = do_quick_match(host, "250")
    paired = do_quick_match(guest, "250", key="qm-1")
    assert paired.pk == waiting.pk and fresh(paired).status == Game.Status.PLAYING
    assert coins(host, guest) == [750, 750]
    assert do_quick_match(guest, "250", key="qm-1").pk == waiting.pk  # repeated: nothing moves
    assert coins(guest) == [750]


def test_quick_match_tiers_only(host):
    with pytest.raises(GameError, match="Quick match stakes are 50, 100, 250, 500, 1,000"):
        do_quick_match(host, "300")
    assert coins(host) == [1000]


def test_quick_match_never_pairs_one_browser_with_itself(host, third):
    browsers.record("one-browser", host.user_id)
    browsers.record("one-browser", third.user_id)
    do_quick_match(host, "100")
    game = do_quick_match(third, "100")
    assert game.status == Game.Status.OPEN and game.owner_id == third.user_id


def test_a_waiting_quick_match_can_be_cancelled(host):
    game = do_quick_match(host, "50")
    do_cancel_staked_room(host, game.pk)
    assert coins(host) == [1000]


def test_cancelling_a_quick_match_again_says_it_was_already_cancelled(host):
    game = do_quick_match(host, "50")
    do_cancel_staked_room(host, game.pk)
    with pytest.raises(Conflict, match="This quick match was already cancelled") as refused:
        do_cancel_staked_room(
            host, game.pk, version=game.version
        )  # the waiting page's second press
    assert "joined" not in str(refused.value)
    assert coins(host) == [1000]


def test_cancelling_an_entry_the_sweeper_paired_says_it_was_paired(host, guest):
    from games.staking.quick import pair_entries
    from games.staking.rooms import do_create_staked_room

    earlier = do_create_staked_room(guest, "twodice", 50, quick=True)
    later = do_create_staked_room(host, "twodice", 50, quick=True)
    pair_entries(earlier.pk, later.pk)
    with pytest.raises(Conflict, match="paired with another player's: that game is on"):
        do_cancel_staked_room(host, later.pk, version=later.version)


def test_the_games_staked_invariants_catch_an_unpaid_finish(host, guest):
    from accounts.ledger.checks import problems

    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # bypassing finish_round
    assert any("escrow is not closed" in p for p in problems())
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)


# Players away


def _time_out(game: Game) -> None:
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=past, turn_deadline=past)
    from games.actions import timers

    assert timers.do_deadline(game.pk)


def test_the_computer_plays_for_a_timed_out_staked_player_at_the_easy_level(
    host, guest, monkeypatch
):
    from games.actions import turns

    levels = []
    real = turns.choose_action
    monkeypatch.setattr(
        turns,
        "choose_action",
        lambda state, level, rng: levels.append(level) or real(state, level, rng),
    )
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    _time_out(fresh(game))
    assert levels == ["random"]
    assert fresh(game).actions.filter(auto="timeout").count() == 1


def test_both_players_away_voids_the_game_and_returns_both_stakes(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    for _ in range(40):
        game = fresh(game)
        if game.is_over:
            break
        _time_out(game)
    assert game.status == Game.Status.ABANDONED
    assert "Both players were away" in game.message
    assert all(s.is_away for s in game.seats.all())
    assert coins(host, guest) == [1000, 1000]
    assert LedgerTransaction.objects.filter(kind="refund", game=game).count() == 1


def test_a_new_account_cannot_join_a_room_above_its_limit(host, django_user_model):
    newbie = member(django_user_model.objects.create_user("newbie"))
    game = room(host, 500)
    with pytest.raises(GameError, match="New accounts stake at most 100"):
        do_join_staked_room(newbie, game.pk)
    assert coins(newbie) == [1000] and fresh(game).status == Game.Status.OPEN


def test_leaving_mid_game_is_resigning(host, guest):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    actions.do_leave(game.pk, host)
    assert fresh(game).status == Game.Status.FINISHED
    assert coins(host, guest) == [900, 1080]


# Rooms nobody waits at


def _absent_for(game: Game, seconds: float) -> None:
    import time

    from games.core import presence

    presence.client().set(_absent_key(game.pk), time.time() - seconds)


def test_a_room_whose_host_left_the_page_for_30_s_is_withdrawn_and_refunded(host):
    game = room(host, 100)
    assert withdraw_unattended() == 0  # first noticed now
    _absent_for(game, 29)
    assert withdraw_unattended() == 0
    _absent_for(game, 31)
    assert withdraw_unattended() == 1
    assert fresh(game).status == Game.Status.ABANDONED and coins(host) == [1000]


def test_a_host_with_the_page_open_keeps_the_room(host):
    from tests.games.webplay import everyone_here

    game = room(host, 100)
    _absent_for(game, 60)
    everyone_here(game)
    assert withdraw_unattended() == 0
    assert fresh(game).status == Game.Status.OPEN and coins(host) == [900]


def test_the_lobby_counts_as_an_open_page_and_logging_out_withdraws(host, django_user_model):
    from django.test import Client

    game = do_quick_match(host, "100")
    client = Client()
    client.force_login(django_user_model.objects.get(pk=host.user_id))
    client.get("/staked/rooms")  # the lobby's refresh
    _absent_for(game, 60)
    assert withdraw_unattended() == 0
    client.post("/accounts/logout/")
    assert fresh(game).status == Game.Status.ABANDONED and coins(host) == [1000]


# The new-player cap: only real rounds against people lift it


def _day_old(django_user_model, name: str):
    """An account past the one-day age rule that has played nothing yet."""
    return veteran(django_user_model, name)


def _own_actions(game: Game, actor) -> int:
    from games.models import Action

    return Action.objects.filter(
        game=game, seat__user_id=actor.user_id, kind__in=["roll", "move"], auto=""
    ).count()


def _against_people(newbie, opponent, own_actions: int, stand_in: bool = False) -> Game:
    """A friends room between two accounts in which the newbie makes `own_actions` rolls and moves
    (or, with `stand_in`, the computer makes them for the newbie's seat), then the opponent resigns."""
    from games.core import presence
    from tests.games.webplay import friends_room, step, turn_seat

    game = friends_room(newbie, [opponent], ruleset="classic")
    here = game.seats.filter(index__in=[1] if stand_in else [0, 1])
    presence.touch(game.pk, list(here.values_list("pk", flat=True)), "test-connection")
    if stand_in:  # the newbie left; after two minutes the opponent hands the seat to the computer
        Game.objects.filter(pk=game.pk).update(started=timezone.now() - timedelta(minutes=3))
        actions.do_replace_absent(game.pk, opponent, 0)
    by_seat = {0: newbie, 1: opponent}
    for _ in range(2000):
        game = fresh(game)
        moves = game.actions.filter(seat__index=0, kind__in=["roll", "move"]).count()
        if moves >= own_actions:
            break
        seat = turn_seat(game)
        if seat.is_bot:
            assert actions.do_bot_turn(game.pk, game.version)
            continue
        step(game, lambda s: by_seat[s.index])
    actions.do_resign(game.pk, opponent)
    assert fresh(game).status == Game.Status.FINISHED
    return game


def test_instant_resignations_against_the_computer_keep_the_new_player_cap(django_user_model):
    from tests.games.webplay import computer_game

    newbie = _day_old(django_user_model, "newbie")
    for _ in range(5):
        game = computer_game(newbie, ruleset="twodice")
        actions.do_resign(game.pk, newbie)
        assert fresh(game).status == Game.Status.FINISHED
    with pytest.raises(GameError, match="New accounts stake at most 100"):
        room(newbie, 500)
    assert coins(newbie) == [1000]


def test_only_rounds_against_people_with_ten_actions_of_ones_own_lift_the_cap(
    django_user_model,
):
    newbie = _day_old(django_user_model, "newbie")
    friend = _day_old(django_user_model, "friend")
    other = _day_old(django_user_model, "other")
    for _ in range(3):
        _against_people(newbie, friend, own_actions=0)  # resigned at once by the opponent
    _against_people(newbie, friend, own_actions=9)
    _against_people(newbie, other, own_actions=12, stand_in=True)  # the computer's, not theirs
    with pytest.raises(GameError, match="New accounts stake at most 100"):
        room(newbie, 500)
    for _ in range(4):
        game = _against_people(newbie, other, own_actions=10)
        assert _own_actions(game, newbie) >= 10
    with pytest.raises(GameError, match="New accounts stake at most 100"):
        room(newbie, 500)  # four real rounds of five
    _against_people(newbie, friend, own_actions=10)
    assert room(newbie, 500).stake == 500
    assert coins(newbie) == [500]


def test_a_young_account_keeps_the_cap_whatever_it_played(django_user_model):
    newbie = _day_old(django_user_model, "newbie")
    friend = _day_old(django_user_model, "friend")
    for _ in range(5):
        _against_people(newbie, friend, own_actions=10)
    django_user_model.objects.filter(pk=newbie.user_id).update(date_joined=timezone.now())
    with pytest.raises(GameError, match="New accounts stake at most 100"):
        room(newbie, 500)
    assert coins(newbie) == [1000]


# Both players gone: a staked game nobody is at is voided, not played out


def _pages_closed(game: Game, seconds_ago: float, monkeypatch) -> None:
    """Both players opened the game page and closed it `seconds_ago` (the consumer's calls), and
    nothing was done in the game since; presence's clock is moved past the closed pages' grace."""
    from games.core import presence
    from games.models import Action

    ids = list(game.seats.values_list("pk", flat=True))
    presence.touch(game.pk, ids, "page-socket")
    gone = presence.drop(game.pk, ids, "page-socket")
    assert gone == set(ids)
    actions.seat_disconnected(sorted(gone), game.pk)
    later = presence._now() + presence.closed_grace() + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    then = timezone.now() - timedelta(seconds=seconds_ago)
    Seat.objects.filter(game=game).update(last_seen=then)
    Action.objects.filter(game=game).update(created=then)
    Game.objects.filter(pk=game.pk).update(started=then)


def _sweep() -> None:
    from games.actions import timers

    timers.sweep()  # what Celery beat runs every couple of seconds


def test_a_staked_game_both_players_left_for_60_s_is_voided_and_refunded(host, guest, monkeypatch):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    _pages_closed(game, 61, monkeypatch)
    _sweep()
    game = fresh(game)
    assert game.status == Game.Status.ABANDONED
    assert "Both players left" in game.message
    assert coins(host, guest) == [1000, 1000]
    assert LedgerTransaction.objects.filter(kind="refund", game=game).count() == 1
    assert not LedgerEntry.objects.filter(account__kind="house").exists()  # no house cut


def test_a_staked_game_left_for_less_than_60_s_plays_on(host, guest, monkeypatch):
    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    _pages_closed(game, 50, monkeypatch)
    _sweep()
    assert fresh(game).status == Game.Status.PLAYING and coins(host, guest) == [900, 900]


def test_one_open_page_or_a_recent_action_keeps_a_staked_game(host, guest, monkeypatch):
    from games.core import presence
    from tests.games.webplay import turn_seat

    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    _pages_closed(game, 120, monkeypatch)
    seat = game.seats.get(index=1)
    presence.touch(game.pk, [seat.pk], "guest-page")  # the guest's page is still open
    _sweep()
    assert fresh(game).status == Game.Status.PLAYING
    presence.drop(game.pk, [seat.pk], "guest-page")
    game = fresh(game)
    player = host if turn_seat(game).user_id == host.user_id else guest
    actions.do_roll(game.pk, player, game.version)  # an action of their own, just now, no socket
    _sweep()
    assert fresh(game).status == Game.Status.PLAYING and coins(host, guest) == [900, 900]


def test_nobody_is_absent_while_redis_is_unreachable(host, guest, settings, monkeypatch):
    from ludopat.embedded_redis import free_port
    from ludopat.settings import redis_settings

    game = room(host, 100)
    do_join_staked_room(guest, game.pk)
    _pages_closed(game, 120, monkeypatch)
    # As tests/conftest.py's redis_down, from here on: the pages closed while Redis was up.
    for name, value in redis_settings(f"redis://127.0.0.1:{free_port()}/0").items():
        if name != "CELERY_BROKER_URL":
            setattr(settings, name, value)
    _sweep()
    assert fresh(game).status == Game.Status.PLAYING and coins(host, guest) == [900, 900]
