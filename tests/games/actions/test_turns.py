"""Rolls and moves, the computer's turns, rule sets played through the actions (games/actions/turns.py),
and every way of asking wrongly (refused, nothing changed)."""

from __future__ import annotations

import pytest

from games import actions, engine
from games.core import caches
from games.core.errors import Conflict, GameError, GameNotFound, NotAllowed, StaleVersion
from games.engine import fair
from games.models import Action, Game
from games.tasks import bot_turn
from games.web import commands
from tests.games.webplay import (
    SEED,
    anon,
    awaiting_move,
    computer_game,
    everyone_here,
    fresh,
    friends_room,
    local_game,
    me,
    member,
    play_until,
    snapshot,
    step,
    turn_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


# --- rolling and moving ----------------------------------------------------------------------------


def test_rolls_are_the_servers_fair_dice():
    actor = anon()
    game = local_game(actor)
    actions.do_roll(game.pk, actor, game.version)
    game = fresh(game)
    seats = list(game.seats.all())
    assert game.client_seed == "|".join(s.client_seed for s in seats)
    first = Action.objects.get(game=game, kind="roll")
    assert first.data == {"roll": [fair.die(SEED, game.client_seed, 0)]}
    assert game.nonce == 1


def test_a_move_is_logged_and_the_state_replays_from_the_log():
    actor = anon()
    game = play_until(local_game(actor), me(actor), awaiting_move)
    state = actions.engine_state(game)
    m = engine.legal_moves(state)[0]
    before = fresh(game).version
    actions.do_move(game.pk, actor, before, m.colour, m.index)
    game = fresh(game)
    assert game.version == before + 1
    last = Action.objects.get(game=game, seq=game.version)
    assert last.kind == "move" and last.data["move"]["token"] == [m.colour, m.index]
    caches.clear_all()  # rebuilt from the Action log alone
    assert actions.engine_state(game).to_json() == game.state


def test_stale_version_is_refused_and_changes_nothing():
    actor = anon()
    game = local_game(actor)
    actions.do_roll(game.pk, actor, game.version)
    before = snapshot(game)
    with pytest.raises(StaleVersion) as caught:
        actions.do_roll(game.pk, actor, game.version)  # the version the page showed before
    assert caught.value.status == 409
    assert snapshot(game) == before


def test_out_of_turn_and_another_seat_are_refused(host, guest):
    game = friends_room(host, [guest])
    everyone_here(game)
    before = snapshot(game)
    with pytest.raises(Conflict, match="turn"):
        actions.do_roll(game.pk, guest, game.version)
    with pytest.raises(NotAllowed, match="not yours"):
        actions.do_roll(game.pk, guest, game.version, seat_index=0)
    assert snapshot(game) == before


def test_moving_another_players_colour_is_refused(host, guest):
    game = friends_room(host, [guest])
    everyone_here(game)
    game = play_until(game, lambda s: host if s.index == 0 else guest, awaiting_move)
    mover = host if turn_seat(game).index == 0 else guest
    other = "yellow" if turn_seat(game).index == 0 else "red"
    before = snapshot(game)
    with pytest.raises(NotAllowed, match="not your colour"):
        actions.do_move(game.pk, mover, game.version, other, 0)
    assert snapshot(game) == before


def test_a_token_that_cant_move_is_refused():
    actor = anon()
    game = play_until(local_game(actor), me(actor), awaiting_move)
    state = actions.engine_state(game)
    movable = {(m.colour, m.index) for m in engine.legal_moves(state)}
    colour = state.players[state.turn][0]
    stuck = [i for i in range(4) if (colour, i) not in movable]
    before = snapshot(game)
    if stuck:
        with pytest.raises(Conflict, match="can't move"):
            actions.do_move(game.pk, actor, game.version, colour, stuck[0])
    with pytest.raises(Conflict):
        actions.do_roll(game.pk, actor, game.version)  # a move is awaited
    with pytest.raises(Conflict):
        actions.do_move(
            game.pk, actor, game.version, colour, 0, die=5 if 5 not in state.dice else 4
        )
    assert snapshot(game) == before


def test_spectators_cannot_act():
    game = local_game(anon("owner"))
    before = snapshot(game)
    for attempt in (
        lambda: actions.do_roll(game.pk, anon("stranger"), game.version),
        lambda: actions.do_resign(game.pk, anon("stranger")),
        lambda: actions.do_new_round(game.pk, anon("stranger")),
    ):
        with pytest.raises(NotAllowed):
            attempt()
    assert snapshot(game) == before


def test_a_game_that_does_not_exist():
    for attempt in (
        lambda: actions.do_roll("nope", anon(), 1),
        lambda: actions.do_move("nope", anon(), 1, "red", 0),
        lambda: actions.do_join("nope", member(type("U", (), {"pk": 1, "username": "x"})())),
    ):
        with pytest.raises(GameNotFound) as caught:
            attempt()
        assert caught.value.status == 404


def test_garbage_parameters_are_400_and_change_nothing():
    actor = anon()
    game = local_game(actor)
    before = snapshot(game)
    for name, data in [
        ("roll", {"version": "abc"}),
        ("roll", {}),
        ("move", {"version": game.version, "colour": "purple", "index": 0}),
        ("move", {"version": game.version, "colour": "red", "index": 9}),
        ("move", {"version": game.version, "colour": "red", "index": 0, "die": "7"}),
        ("move", {"version": "-1", "colour": "red", "index": "x"}),
        ("seed", {"seat": 0, "seed": "a|b"}),
        ("takeover", {"seat": "me"}),
        ("explode", {}),
    ]:
        with pytest.raises(GameError) as caught:
            commands.run(name, game.pk, actor, data)
        assert caught.value.status == 400, (name, data)
    assert snapshot(game) == before


def test_finished_game_refuses_play():
    actor = anon()
    game = local_game(actor)
    actions.do_resign(game.pk, actor, seat_index=0)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    before = snapshot(game)
    with pytest.raises(Conflict, match="over"):
        actions.do_roll(game.pk, actor, game.version)
    with pytest.raises(Conflict, match="over"):
        actions.do_move(game.pk, actor, game.version, "red", 0)
    assert snapshot(game) == before


# --- computers ------------------------------------------------------------------------------------


def test_bot_turn_task_plays_only_the_version_it_was_scheduled_for():
    actor = anon()
    game = computer_game(actor)
    game = play_until(game, me(actor), lambda g: turn_seat(g).is_bot)
    version = game.version
    assert bot_turn(game.pk, version - 1) is False  # a late task: nothing happens
    assert fresh(game).version == version
    assert bot_turn(game.pk, version) is True
    assert fresh(game).version == version + 1
    assert bot_turn(game.pk, version) is False  # repeated: harmless


def test_bot_does_nothing_on_a_human_turn():
    actor = anon()
    game = computer_game(actor)
    assert bot_turn(game.pk, game.version) is False


def test_a_whole_game_against_computers_finishes_with_places(settings):
    actor = anon()
    game = computer_game(actor, options={"tokens": 2}, levels=("greedy",))
    game = play_until(game, me(actor), lambda g: g.status != Game.Status.PLAYING, limit=4000)
    assert game.status == Game.Status.FINISHED
    assert sorted(game.result_places) == [0, 1]
    assert "wins" in game.message


def test_commit_notifies_the_group_and_schedules_the_bot(django_capture_on_commit_callbacks):
    from unittest import mock

    actor = anon()
    game = computer_game(actor)
    game = play_until(
        game, me(actor), lambda g: not turn_seat(g).is_bot and g.state["awaiting"] == "roll"
    )
    with (
        mock.patch("games.core.broadcast.board_changed") as notify,
        mock.patch("ludopat.celery.app.send_task") as schedule,
        django_capture_on_commit_callbacks(execute=True),
    ):
        actions.do_roll(game.pk, actor, game.version)
    game = fresh(game)
    assert notify.call_args.args[:2] == (game.pk, game.version)
    if turn_seat(game) and turn_seat(game).is_bot:
        schedule.assert_called_once()
        assert schedule.call_args.args[:2] == ("games.tasks.bot_turn", (game.pk, game.version))


# --- rule set features through the site ------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("places", {"pairs": True, "hold": True}),
        ("twodice", {}),
        ("duel", {}),
        ("classic", {"tokens": 2}),
    ],
)
def test_every_rule_set_plays_through_the_actions(ruleset, options):
    actor = anon()
    game = local_game(actor, ruleset=ruleset, options=options, names=("Ann", "Ben"))
    game = play_until(game, me(actor), lambda g: g.version > 60)
    caches.clear_all()
    assert actions.engine_state(game).to_json() == game.state
    step(game, me(actor))
