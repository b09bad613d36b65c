"""A staked join that committed after the ban's own sweep is given up by the real beat and worker:
the banned player never keeps a seat in a running game. PostgreSQL only (the join
can't commit around the ban on SQLite, which serialises writers)."""

from __future__ import annotations

import pytest

from accounts.ledger.history import balance_of
from accounts.moderation import bans
from games.core.narration import shown
from games.models import Game
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from tests.accounts.moderation.conftest import MODERATOR, staff
from tests.games.webplay import SEED, fresh, member
from tests.integration.conftest import wait_for
from tests.ledger_checks import assert_ledger_ok
from tests.races import interleave, nothing, postgres_only

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, postgres_only]


def test_beat_gives_up_a_seat_taken_behind_the_bans_back(celery, django_user_model, settings):
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    host = django_user_model.objects.create_user("host")
    troll = django_user_model.objects.create_user("troll")
    moderator = staff(django_user_model, "mod", MODERATOR)
    room = do_create_staked_room(member(host), "twodice", 100, timer_seconds=30)
    joined, banned = interleave(
        lambda: do_join_staked_room(member(troll), room.pk),  # committed after the ban
        nothing,
        lambda: bans.do_ban(moderator, troll, reason="Collusion"),
    )
    assert not isinstance(joined, BaseException) and not isinstance(banned, BaseException)
    assert fresh(room).status == Game.Status.PLAYING  # the ban didn't see this seat
    room = wait_for(lambda: (g := fresh(room)).is_over and g, timeout=15, interval=0.2)
    names = {troll.pk: "troll", host.pk: "host"}
    assert room.status == Game.Status.FINISHED
    assert "troll resigned. host wins!" in shown(room.message, names)
    assert balance_of(host.pk) == 1080 and balance_of(troll.pk) == 900
    assert_ledger_ok()
