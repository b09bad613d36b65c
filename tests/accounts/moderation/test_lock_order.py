"""Moderators' actions racing the players' own, on PostgreSQL, in both orders.

A ban, a mute or a rename locks the account's row; a move that ends a round, a chat message or a join
holds the game's row and writes rows that point at the account (results, standings, chat lines, stake
requests), whose foreign-key check shares that account's row. With one lock order everywhere (accounts,
then the game, then wallets and escrows) neither side ever fails: whichever comes first wins, the other
waits for it and then finds the world as the first left it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from accounts.moderation import bans, mutes, renames
from games import actions
from games.actions import SeatSpec, chat, lock_game, pauses
from games.core.errors import GameError
from games.models import ChatMessage, Game, Seat
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from games.tasks import sweep_deadlines
from leaderboard.models import Result
from tests.games.webplay import SEED, everyone_here, fresh, friends_room, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401
from tests.races import interleave, nothing, one_move_from_the_end, postgres_only

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.races,
    postgres_only,
]


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


def accepted(result) -> bool:
    return not isinstance(result, BaseException)


def refused_politely(result) -> bool:
    """A sentence for the player (a GameError), never a database error."""
    return isinstance(result, GameError)


def pot_settled_once(game: Game) -> None:
    assert LedgerTransaction.objects.filter(game=game, closes__isnull=False).count() == 1


# --- ban vs a round-ending move ------------------------------------------------------------------------


@pytest.fixture
def near_the_end(django_user_model):
    """A room (classic, two tokens each: a short round) whose player to act has the winning move:
    (game, that move, mover, other)."""
    users = [django_user_model.objects.create_user(n) for n in ("host", "guest")]
    seats = [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)]
    game = actions.create_game(member(users[0]), "friends", "classic", {"tokens": 2}, seats)
    actions.do_join(game.pk, member(users[1]))
    everyone_here(game)
    actions.do_start(game.pk, member(users[0]))
    game, move, index = one_move_from_the_end(game, lambda seat: member(users[seat.index]))
    return game, move, users[index], users[1 - index]


def test_a_ban_waits_for_the_banned_players_winning_move(near_the_end, moderator):
    game, move, mover, other = near_the_end
    moved, banned = interleave(
        lambda: lock_game(game.pk), move, lambda: bans.do_ban(moderator, mover, reason="Spam")
    )
    assert accepted(moved), repr(moved)
    assert accepted(banned), repr(banned)
    game = fresh(game)  # the move came first: its win stands
    assert game.status == Game.Status.FINISHED
    assert places(game) == [mover.pk, other.pk]
    mover.refresh_from_db()
    assert mover.is_banned


def test_a_winning_move_after_the_ban_is_refused(near_the_end, moderator):
    game, move, mover, _other = near_the_end
    banned, moved = interleave(lambda: bans.do_ban(moderator, mover, reason="Spam"), nothing, move)
    assert accepted(banned), repr(banned)
    assert refused_politely(moved), repr(moved)
    game = fresh(game)  # the ban came first: the seat is no longer the banned player's to play
    seat = game.seats.get(user=mover)
    assert seat.resigned or seat.bot_controlled
    assert mover.pk not in places(game)[:1]


def places(game: Game) -> list[int | None]:
    """The accounts in the order the round's result placed them."""
    rows = Result.objects.filter(round__game=game, round__number=game.round).order_by("place")
    return list(rows.values_list("user_id", flat=True))


# --- ban and mute vs a chat message --------------------------------------------------------------------


@pytest.fixture
def paused(django_user_model, player):
    """A timed room in a pause (its chat open): `victim` hosts, the troll plays."""
    victim = django_user_model.objects.create_user("victim")
    game = friends_room(member(victim), [member(player)], start=False)
    game.timer_seconds = 30
    game.save(update_fields=["timer_seconds"])
    everyone_here(game)
    actions.do_start(game.pk, member(victim))
    pauses.do_pause(game.pk, member(victim))
    return game


def test_a_ban_waits_for_the_banned_players_chat_message(paused, player, moderator):
    said, banned = interleave(
        lambda: lock_game(paused.pk),
        lambda: chat.do_chat(paused.pk, member(player), "buy coins here"),
        lambda: bans.do_ban(moderator, player, reason="Spam"),
    )
    assert accepted(said), repr(said)
    assert accepted(banned), repr(banned)
    assert ChatMessage.objects.filter(user=player).count() == 1  # said before the ban
    player.refresh_from_db()
    assert player.is_banned
    assert not fresh(paused).seats.filter(user=player, resigned=False, bot_controlled=False)


def test_a_chat_message_after_the_ban_is_refused(paused, player, moderator):
    banned, said = interleave(
        lambda: bans.do_ban(moderator, player, reason="Spam"),
        nothing,
        lambda: chat.do_chat(paused.pk, member(player), "buy coins here"),
    )
    assert accepted(banned), repr(banned)
    assert refused_politely(said), repr(said)
    assert not ChatMessage.objects.filter(user=player).exists()


def _mute(moderator, player):
    return lambda: mutes.do_mute(
        moderator, player, until=timezone.now() + timedelta(hours=1), reason="Caps lock"
    )


def test_a_chat_message_racing_a_mute_is_either_said_before_it_or_refused(
    paused, player, moderator
):
    for first, then, second, said_at in (
        (_say(paused, player, "one"), nothing, _mute(moderator, player), 0),
        (_mute(moderator, player), nothing, _say(paused, player, "two"), 1),
    ):
        results = interleave(first, then, second)
        said = results[said_at]
        assert accepted(results[1 - said_at]), repr(results)
        assert accepted(said) or refused_politely(said), repr(said)
        with pytest.raises(GameError, match="Muted until"):  # and from now on, refused
            chat.do_chat(paused.pk, member(player), "three")
        mutes.do_unmute(moderator, player, reason="Next round of the test")


def _say(game, player, text):
    return lambda: chat.do_chat(game.pk, member(player), text)


# --- ban vs a join -------------------------------------------------------------------------------------


@pytest.fixture
def staked_room(django_user_model):
    host = django_user_model.objects.create_user("host")
    guest = django_user_model.objects.create_user("guest")
    return do_create_staked_room(member(host), "twodice", 100), host, guest


def _join(room, guest):
    return lambda: do_join_staked_room(member(guest), room.pk)


@pytest.mark.parametrize("join_first", [True, False])
def test_a_ban_of_the_host_racing_a_join(staked_room, moderator, join_first):
    room, host, guest = staked_room
    ban = lambda: bans.do_ban(moderator, host, reason="Spam")  # noqa: E731
    if join_first:
        joined, banned = interleave(lambda: lock_game(room.pk), _join(room, guest), ban)
        assert accepted(joined), repr(joined)
    else:
        banned, joined = interleave(ban, nothing, _join(room, guest))
        assert refused_politely(joined), repr(joined)
    assert accepted(banned), repr(banned)
    room = fresh(room)
    assert room.is_over  # the ban resigned the host's game, or closed the room before the join
    pot_settled_once(room)
    assert balance_of(host.pk) == (900 if join_first else 1000)
    assert balance_of(guest.pk) == (1080 if join_first else 1000)


@pytest.mark.parametrize("join_first", [True, False])
def test_a_ban_of_the_guest_racing_their_join(staked_room, moderator, join_first):
    room, _host, guest = staked_room
    ban = lambda: bans.do_ban(moderator, guest, reason="Spam")  # noqa: E731
    if join_first:
        joined, banned = interleave(lambda: lock_game(room.pk), _join(room, guest), ban)
    else:
        banned, joined = interleave(ban, nothing, _join(room, guest))
    assert accepted(banned), repr(banned)
    assert accepted(joined) or refused_politely(joined), repr(joined)
    sweep_deadlines()  # a join the ban's own sweep did not see: item 3 (test_ban_sweeps.py)
    assert not fresh(room).seats.filter(user=guest, resigned=False).exists()


# --- rename vs a round's end ---------------------------------------------------------------------------


@pytest.mark.parametrize("move_first", [True, False])
def test_a_rename_racing_the_winning_move(near_the_end, moderator, move_first):
    game, move, mover, other = near_the_end
    rename = lambda: renames.do_rename(moderator, mover, new_username="renamed", reason="Offensive")  # noqa: E731
    if move_first:
        moved, renamed = interleave(lambda: lock_game(game.pk), move, rename)
    else:
        renamed, moved = interleave(rename, nothing, move)
    assert accepted(moved), repr(moved)
    assert accepted(renamed), repr(renamed)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED and places(game) == [mover.pk, other.pk]
    assert game.seats.get(user=mover).display_name == "renamed"
