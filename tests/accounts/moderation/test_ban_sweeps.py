"""A join racing a ban never leaves the banned player seated: the ban gives up every
seat it finds, and the deadline sweeper (beat, every 2 s) gives up any seat a banned account took after
the ban looked, such as a join that committed after the ban's sweep. PostgreSQL only: SQLite
serialises every writer, so the join can't commit around the ban there."""

from __future__ import annotations

import pytest
from django.conf import settings

from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from accounts.moderation import bans
from games.core.errors import GameError
from games.models import Game
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from games.tasks import sweep_deadlines
from tests.games.webplay import SEED, fresh, member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401
from tests.races import interleave, nothing, postgres_only

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


def test_beat_runs_the_sweeper_at_least_every_five_seconds():
    [sweeper] = [
        entry
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
        if entry["task"] == "games.tasks.sweep_deadlines"
    ]
    assert sweeper["schedule"] <= 5


@pytest.mark.parametrize(
    "when", ["join-open-as-the-ban-looks", "join-inside-the-ban", "join-after"]
)
def test_a_join_the_ban_did_not_see_is_given_up_by_the_sweeper(django_user_model, moderator, when):
    host = django_user_model.objects.create_user("host")
    troll = django_user_model.objects.create_user("troll")
    room = do_create_staked_room(member(host), "twodice", 100)
    join = lambda: do_join_staked_room(member(troll), room.pk)  # noqa: E731
    ban = lambda: bans.do_ban(moderator, troll, reason="Collusion")  # noqa: E731
    if when == "join-open-as-the-ban-looks":  # written, committed only after the ban
        joined, banned = interleave(join, nothing, ban)
    elif when == "join-inside-the-ban":  # between the ban's look at the seats and its commit
        banned, joined = interleave(ban, nothing, join)
    else:  # may be refused (a banned account) or get through
        banned = ban()
        try:
            joined = join()
        except GameError as refusal:
            joined = refusal
    assert not isinstance(joined, BaseException) or isinstance(joined, GameError), repr(joined)
    assert not isinstance(banned, BaseException), repr(banned)
    sweep_deadlines()  # what beat runs every 2 s
    room = fresh(room)
    assert not room.seats.filter(user=troll, resigned=False).exists()
    if room.status == Game.Status.OPEN:  # the join was refused: the host still waits, stake held
        assert balance_of(host.pk) == 900 and balance_of(troll.pk) == 1000
    else:  # the troll was seated: they gave the game up, the host took the pot
        assert room.status == Game.Status.FINISHED
        assert room.result_places == [
            room.seats.get(user=host).index,
            room.seats.get(user=troll).index,
        ]
        assert LedgerTransaction.objects.filter(game=room, kind="payout").count() == 1
        assert balance_of(host.pk) == 1080 and balance_of(troll.pk) == 900
    sweep_deadlines()  # and nothing more happens
    assert LedgerTransaction.objects.filter(game=room, closes__isnull=False).count() <= 1


def test_a_registration_the_ban_did_not_see_is_given_up_by_the_sweeper(moderator):
    from games.tournaments.models import Tournament
    from games.tournaments.registration import do_register, open_tournament
    from tests.games.tournaments.helpers import players

    troll, other = players(2)
    tournament = open_tournament(4, 100)
    do_register(other, tournament.pk)
    user = django_user(troll)
    ban = lambda: bans.do_ban(moderator, user, reason="Collusion")  # noqa: E731
    # Written, committed only after the ban looked at the player's tournaments.
    registered, banned = interleave(lambda: do_register(troll, tournament.pk), nothing, ban)
    assert not isinstance(registered, BaseException), repr(registered)
    assert not isinstance(banned, BaseException), repr(banned)
    sweep_deadlines()  # what beat runs every 2 s
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert list(tournament.entries.values_list("user_id", flat=True)) == [other.user_id]
    assert balance_of(troll.user_id) == 1000 and tournament.pool.balance == 100


def django_user(actor):
    from accounts.models import User

    return User.objects.get(pk=actor.user_id)
