"""The process's caches serve only what was committed: an action rolled back after its state was
computed leaves nothing behind, whatever is committed at that version afterwards."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.db import transaction

from accounts.moderation.roles import MODERATOR
from games import actions
from games.core import caches, selectors
from games.core.actors import Actor
from games.live.fragments import render_live
from games.live.viewpoint import viewpoint_for
from games.models import Seat
from tests.accounts.moderation.conftest import staff
from tests.games.webplay import SEED, anon, everyone_here, fresh, friends_room, member, step
from tests.stack import ROOT, service_env

# Committed for real: what the caches keep on commit is what is checked.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fixed_seeds(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


class RolledBack(Exception):
    """Raised after an action, inside its transaction, so that nothing of it is committed."""


def forget_everything() -> None:
    """Empty this process's caches: what is rendered next is read and replayed afresh."""
    caches.clear_all()


def test_a_rolled_back_action_leaves_no_state_for_the_version_committed_after_it(
    django_user_model, redis_client
):
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    # The guest's seat is played by the computer while they are away (how it got there is not the point).
    away = game.seats.get(user_id=guest.user_id)
    Seat.objects.filter(pk=away.pk).update(bot_controlled=True)
    game = fresh(game)
    version = game.version
    assert (
        actions.turn_seat(game, seats_of(game), actions.engine_state(game)).user_id == host.user_id
    )

    # The host's roll is computed (and its state cached), then its transaction rolls back.
    with pytest.raises(RolledBack):
        roll_then_fail(game.pk, host, version)
    assert fresh(game).version == version  # nothing of it was committed
    # Something else is committed at that same version: the guest comes back.
    assert actions.seat_connected(game.pk, away.pk)

    game = fresh(game)
    assert game.version == version + 1
    seats = seats_of(game)
    served_state = actions.engine_state(game).to_json()
    served = {vp.key: render_live(game, vp, seats=seats) for vp in viewpoints(game, seats)}
    forget_everything()
    assert (
        served_state == actions.engine_state(game).to_json()
    )  # no roll: the host is still to roll
    fresh_renders = {vp.key: render_live(game, vp, seats=seats) for vp in viewpoints(game, seats)}
    assert served == fresh_renders
    actions.do_roll(game.pk, host, game.version)  # and the host rolls at the committed version


@transaction.atomic
def roll_then_fail(game_id, actor, version) -> None:
    actions.do_roll(game_id, actor, version)
    raise RolledBack


def seats_of(game):
    return list(game.seats.select_related("user").order_by("index"))


def viewpoints(game, seats):
    people = [member(s.user) for s in seats if s.user is not None]
    return [viewpoint_for(game, seats, who) for who in [*people, anon("a-stranger")]]


# The other process: a small Django program on the same database and Redis that answers one command per
# line of its input (a JSON list: the command and its arguments) with one JSON line.
OTHER_PROCESS = """
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import transaction
from accounts.moderation import renames
from games import actions
from games.core import caches, selectors
from games.core.actors import Actor
from games.live.fragments import render_live
from games.live.viewpoint import viewpoint_for

class RolledBack(Exception):
    pass

def boards(game_id, version, people):
    if version is None:  # as the push of a change with no new version renders them
        game, seats = selectors.game_and_seats(game_id)
    else:  # as the push of `version` renders them
        game, seats = selectors.game_and_seats_at(game_id, version)
    return {vp.key: render_live(game, vp, seats=seats) for vp in
            [viewpoint_for(game, seats, Actor(*who)) for who in people]}

def run(command, *args):
    if command == "boards":
        return boards(*args)
    if command == "fresh":  # as a process that never saw the game renders them
        caches.clear_all()
        game_id, people = args
        return boards(game_id, None, people)
    if command == "roll back a roll":
        game_id, who, version = args
        try:
            with transaction.atomic():
                actions.do_roll(game_id, Actor(*who), version)
                raise RolledBack
        except RolledBack:
            return "rolled back"
    if command == "rename":
        moderator, user, name = args
        users = get_user_model().objects
        renames.do_rename(
            users.get(pk=moderator), users.get(pk=user), new_username=name, reason="Offensive name"
        )
        return name
    raise ValueError(command)

print(json.dumps("ready"), flush=True)
for line in sys.stdin:
    print(json.dumps(run(*json.loads(line))), flush=True)
"""


class OtherProcess:
    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", OTHER_PROCESS],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self._answer() == "ready"

    def __call__(self, *command):
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return self._answer()

    def _answer(self):
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(30)
            raise AssertionError(self.proc.stderr.read()[-3000:])
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(30)


def boards_here(game_id: str, version: int | None, people) -> dict[str, str]:
    """Every viewpoint's board as the push of `version` renders it in this process, or (None) as the
    push of a change with no new version does (presence, a deadline, a rename: read afresh)."""
    if version is None:
        game, seats = selectors.game_and_seats(game_id)
    else:
        game, seats = selectors.game_and_seats_at(game_id, version)
    return {
        vp.key: render_live(game, vp, seats=seats)
        for vp in [viewpoint_for(game, seats, Actor(*who)) for who in people]
    }


def fresh_boards_here(game_id: str, people) -> dict[str, str]:
    caches.clear_all()
    return boards_here(game_id, None, people)


def test_every_board_in_two_processes_equals_a_fresh_render_after_a_rollback_a_commit_and_a_rename(
    django_user_model, django_db_blocker
):
    """One process rolls an action back, the other commits a different one at that version, a player is
    renamed: each process, both having rendered every viewpoint before, serves every viewpoint's board
    exactly as a process that never saw the game renders it."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    away = game.seats.get(user_id=guest.user_id)
    Seat.objects.filter(pk=away.pk).update(bot_controlled=True)
    moderator = staff(django_user_model, "mod", MODERATOR)
    people = [
        [host.user_id, host.key, host.username],
        [guest.user_id, guest.key, guest.username],
        [None, "a-stranger", ""],
    ]
    version = fresh(game).version
    other = OtherProcess(service_env("ludopat.settings", django_db_blocker))
    try:
        # Both processes show every viewpoint of this version (their caches hold it).
        assert boards_here(game.pk, version, people) == other("boards", game.pk, version, people)
        # The other process computes the host's roll and rolls it back; this one commits the guest's
        # return at the same version.
        assert other("roll back a roll", game.pk, people[0], version) == "rolled back"
        assert actions.seat_connected(game.pk, away.pk)
        assert fresh(game).version == version + 1
        # The pushes of the new version, in both processes, and each process renders afresh.
        here = boards_here(game.pk, version + 1, people)
        there = other("boards", game.pk, version + 1, people)
        assert here == there == fresh_boards_here(game.pk, people)
        assert there == other("fresh", game.pk, people)
        # The guest is renamed in the other process: no new version; the push that tells of it renders
        # every board in both processes, and every later render of the version shows the new name.
        assert other("rename", moderator.pk, guest.user_id, "Renamed") == "Renamed"
        assert fresh(game).version == version + 1
        here = boards_here(game.pk, None, people)
        there = other("boards", game.pk, None, people)
        assert all("Renamed" in html and "guesto" not in html for html in here.values())
        assert here == there == boards_here(game.pk, version + 1, people)
        assert there == other("boards", game.pk, version + 1, people)
        assert here == fresh_boards_here(game.pk, people) == other("fresh", game.pk, people)
    finally:
        other.close()


def test_a_void_of_a_finished_rounds_results_is_never_served_from_the_cache(
    django_user_model, redis_client
):
    from accounts.moderation.roles import ADMIN, ensure_roles
    from accounts.moderation.voids import do_void_result
    from games.models import Round
    from tests import factories as f

    ensure_roles()
    winner = django_user_model.objects.create_user("winner")
    loser = django_user_model.objects.create_user("loser")
    game = f.room([winner, loser], ruleset="duel")
    actions.do_resign(game.pk, member(loser))

    def board() -> str:
        game_now = fresh(game)
        seats = seats_of(game_now)
        return render_live(game_now, viewpoint_for(game_now, seats, member(winner)), seats=seats)

    assert "10 pts" in board()  # rendered and kept in this process's cache
    do_void_result(
        staff(django_user_model, "boss", ADMIN), Round.objects.get(game=game), reason="collusion"
    )
    after = board()
    assert "10 pts" not in after and "not counted" in after
    forget_everything()
    assert board() == after  # what the cache served is what a fresh render says


def test_the_rows_a_roll_or_a_move_keeps_are_the_rows_it_committed(django_user_model, redis_client):
    """A turn keeps the game and seats it wrote for the renders of its version, which then read
    nothing: at every version of a stretch of play (rolls, moves, turns passing), what is kept equals
    what a fresh read of the database gives, column by column, accounts included."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    actors = {0: host, 1: guest}
    for _ in range(40):
        game = step(game, lambda seat: actors[seat.index])
        kept = caches.ROWS.get((game.pk, game.version))
        assert kept is not None, f"nothing kept at version {game.version}"
        read, read_seats = selectors.game_and_seats(game.pk)
        assert read is not None and read.version == game.version
        assert kept == caches.Rows.of(read, read_seats)
        assert game.status == game.Status.PLAYING


def test_each_reader_of_kept_rows_gets_json_values_of_its_own(django_user_model):
    """Rows kept for a version are built anew for each reader: one render changing its game's state or
    a seat's colours in place (a list, a dict) changes nothing another reader, or the cache, sees."""
    host = member(django_user_model.objects.create_user("keeper"))
    guest = member(django_user_model.objects.create_user("reader"))
    game = friends_room(host, [guest])
    read, seats = selectors.game_and_seats(game.pk)
    kept = caches.Rows.of(read, seats)
    first, first_seats = kept.build()
    first.state["tokens"][next(iter(first.state["tokens"]))].append(99)
    first.options["meddled"] = True
    first_seats[0].colours.append("purple")
    second, second_seats = kept.build()
    assert second.state == read.state and second.options == read.options
    assert second_seats[0].colours == seats[0].colours
    assert kept == caches.Rows.of(read, seats)
