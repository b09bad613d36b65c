"""A banned account never scores above last: whatever ends a round it sat in, its counted result is the
last place (games/actions/rounds.py, where every round ends)."""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts.moderation import bans
from games import actions
from games.core.round_ends import RANKED, RoundEnd
from games.models import Action, Game
from leaderboard.models import Result
from tests.games.webplay import everyone_here, fresh, friends_room, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model, player):
    """The host, a guest and `player` (troll, the account to be banned) as actors."""
    host = django_user_model.objects.create_user("victim")
    guest = django_user_model.objects.create_user("bystander")
    return member(host), member(guest), member(player)


def places_of(game: Game, number: int) -> dict[str, tuple[int, int, bool]]:
    """{username: (place, points, counted)} of the round's results."""
    rows = Result.objects.filter(round__game=game, round__number=number).select_related("user")
    return {r.user.username: (r.place, r.points, r.counted) for r in rows}


def test_a_new_round_asked_over_the_computer_playing_a_banned_seat_scores_it_last(
    people, moderator, player
):
    host, _, troll = people
    game = friends_room(host, [troll])
    everyone_here(game)
    bans.do_ban(moderator, player, reason="Abuse")  # troll resigns: the host wins round 1
    actions.do_new_round(game.pk, host)  # "Play again": the banned seat doesn't hold it up
    game = fresh(game)
    assert game.round == 2 and game.seats.get(user=player).is_bot
    actions.do_new_round(game.pk, host)  # over the round the computer plays for troll
    assert places_of(game, 2) == {"victim": (1, 10, True), "troll": (2, 0, True)}


def test_a_ban_after_another_player_resigned_places_the_banned_account_last(
    people, moderator, player
):
    host, guest, troll = people
    game = friends_room(host, [guest, troll], count=3)
    everyone_here(game)
    actions.do_resign(game.pk, guest)  # the computer plays on for the guest
    bans.do_ban(moderator, player, reason="Abuse")  # troll gives up last: the round ends
    assert places_of(game, 1) == {
        "victim": (1, 10, True),
        "bystander": (2, 6, True),
        "troll": (3, 0, True),
    }


def test_a_ban_between_rounds_then_a_wiped_round_places_the_banned_account_last(
    people, moderator, player
):
    host, _, troll = people
    game = friends_room(host, [troll])
    everyone_here(game)
    actions.do_resign(game.pk, host)  # round 1 over: the ban finds no game in play
    bans.do_ban(moderator, player, reason="Abuse")
    actions.do_new_round(game.pk, host)  # round 2, before the sweeper has given up troll's seat
    actions.do_new_round(game.pk, host)  # and wiped
    assert places_of(game, 2) == {"victim": (1, 10, True), "troll": (2, 0, True)}


@pytest.mark.parametrize("how", sorted(RANKED))
def test_no_ranked_end_puts_a_banned_account_above_last(people, moderator, player, how):
    """The one place a round ends holds the rule, whoever worked out the places (a computer's win
    for the banned seat included)."""
    host, guest, troll = people
    game = friends_room(host, [guest, troll], count=3)
    player.banned_at = player.date_joined  # banned, its seat not yet given up
    player.save(update_fields=["banned_at"])
    with transaction.atomic():
        locked = actions.lock_game(game.pk)
        seats = actions.seats_in(locked)
        actions.end_round(
            locked, seats, places=[2, 0, 1], how=RoundEnd(how), action=Action.Kind.ABANDON
        )
    assert fresh(game).result_places == [0, 1, 2]
    assert places_of(game, 1)["troll"] == (3, 0, True)
