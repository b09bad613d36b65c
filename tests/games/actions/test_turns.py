"""Every game action: what a player can do, and every way of asking wrongly (refused, nothing changed)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions, commands, engine, presence
from games.engine import fair
from games.errors import Conflict, GameError, GameNotFound, NotAllowed, StaleVersion
from games.models import Action, Game, Round, Seat
from games.records import record_for
from games.tasks import bot_turn
from tests.games.webplay import (
    SEED,
    anon,
    awaiting_move,
    computer_game,
    everyone_here,
    fresh,
    friends_room,
    local_game,
    member,
    play_until,
    step,
    turn_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


@pytest.fixture
def host(django_user_model):
    return member(django_user_model.objects.create_user("hostess"))


@pytest.fixture
def guest(django_user_model):
    return member(django_user_model.objects.create_user("guesto"))


@pytest.fixture
def third(django_user_model):
    return member(django_user_model.objects.create_user("thirdy"))


def snapshot(game: Game) -> tuple:
    game = fresh(game)
    return game.version, game.state, game.nonce, Action.objects.filter(game=game).count()


def me(actor):
    return lambda seat: actor


# --- creating and starting ------------------------------------------------------------------------


def test_computer_game_starts_at_once_with_a_seed_commitment():
    game = computer_game(levels=("greedy", "strong", "random"))
    assert game.status == Game.Status.PLAYING
    assert [s.kind for s in game.seats.all()] == ["human", "computer", "computer", "computer"]
    assert game.players == [["red"], ["green"], ["yellow"], ["blue"]]
    assert game.server_seed_sha256 == fair.commitment(game.server_seed)
    assert game.state["awaiting"] == "roll"
    assert Action.objects.filter(game=game).count() == game.version


def test_production_seeds_are_fresh_even_if_a_fixed_seed_is_configured(settings):
    settings.LUDOPAT_TEST_SEEDS = False
    one, two = computer_game(), computer_game()
    assert SEED not in (one.server_seed, two.server_seed)
    assert one.server_seed != two.server_seed


def test_unknown_rules_or_options_are_refused():
    with pytest.raises(GameError):
        computer_game(ruleset="chess")
    with pytest.raises(GameError):
        computer_game(options={"tokens": 3})


def test_friends_room_needs_an_account(host):
    with pytest.raises(NotAllowed):
        friends_room(anon(), start=False)


def test_duel_room_puts_host_on_red_and_first_guest_on_blue(host, guest):
    game = friends_room(host, [guest], ruleset="duel")
    seats = list(game.seats.all())
    assert (seats[0].user_id, seats[0].colours) == (host.user_id, ["red"])
    assert (seats[1].user_id, seats[1].colours) == (guest.user_id, ["blue"])


def test_join_start_and_open_seats(host, guest, third):
    game = friends_room(host, ruleset="classic", count=3, start=False)
    assert game.status == Game.Status.OPEN
    with pytest.raises(NotAllowed):
        actions.do_join(game.pk, anon())  # a guest without an account
    seat = actions.do_join(game.pk, guest)
    assert actions.do_join(game.pk, guest) == seat  # joining twice keeps the seat
    with pytest.raises(Conflict, match="Every seat"):
        actions.do_start(game.pk, host)
    with pytest.raises(NotAllowed):
        actions.do_set_seat(game.pk, guest, 2, "computer", "strong")  # only the host
    actions.do_set_seat(game.pk, host, 2, "computer", "strong")
    with pytest.raises(Conflict, match="full"):
        actions.do_join(game.pk, third)
    with pytest.raises(NotAllowed):
        actions.do_start(game.pk, guest)
    actions.do_start(game.pk, host)
    assert fresh(game).status == Game.Status.PLAYING
    with pytest.raises(Conflict):
        actions.do_join(game.pk, third)


def test_guest_leaving_before_the_start_frees_the_seat_and_the_host_closes_the_room(host, guest):
    game = friends_room(host, [guest], start=False)
    actions.do_leave(game.pk, guest)
    assert fresh(game).seats.get(index=1).kind == Seat.Kind.OPEN
    actions.do_leave(game.pk, host)
    assert fresh(game).status == Game.Status.ABANDONED


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
    actions.core._STATES.clear()  # rebuilt from the Action log alone
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


def test_commit_notifies_the_group_and_schedules_the_bot(
    django_capture_on_commit_callbacks, mocker=None
):
    from unittest import mock

    actor = anon()
    game = computer_game(actor)
    game = play_until(
        game, me(actor), lambda g: not turn_seat(g).is_bot and g.state["awaiting"] == "roll"
    )
    with (
        mock.patch("games.broadcast.board_changed") as notify,
        mock.patch("ludopat.celery.app.send_task") as schedule,
        django_capture_on_commit_callbacks(execute=True),
    ):
        actions.do_roll(game.pk, actor, game.version)
    game = fresh(game)
    assert notify.call_args.args[:2] == (game.pk, game.version)
    if turn_seat(game) and turn_seat(game).is_bot:
        schedule.assert_called_once()
        assert schedule.call_args.args[:2] == ("games.tasks.bot_turn", (game.pk, game.version))


# --- resigning, abandoning, continuing -------------------------------------------------------------


def test_resign_with_one_opponent_ends_the_game(host, guest):
    game = friends_room(host, [guest])
    actions.do_resign(game.pk, guest)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.result_places == [0, 1]


def test_resign_among_three_lets_the_computer_play_on(host, guest, third):
    game = friends_room(host, [guest, third], count=3)
    actions.do_resign(game.pk, third)
    game = fresh(game)
    assert game.status == Game.Status.PLAYING
    seat = game.seats.get(index=2)
    assert seat.resigned and seat.is_bot


def test_continue_lists_unfinished_games_and_abandon_removes_them(host, guest):
    mine = anon("me")
    first = computer_game(mine)
    second = local_game(mine)
    room = friends_room(host, [guest])
    assert {g.pk for g in actions.unfinished_games(mine)} == {first.pk, second.pk}
    assert room.pk in {g.pk for g in actions.unfinished_games(guest)}
    with pytest.raises(NotAllowed):
        actions.do_abandon(first.pk, anon("someone else"))
    actions.do_abandon(first.pk, mine)
    assert fresh(first).status == Game.Status.ABANDONED
    assert {g.pk for g in actions.unfinished_games(mine)} == {second.pk}
    actions.do_abandon(room.pk, guest)  # in a room, abandoning is resigning
    assert room.pk not in {g.pk for g in actions.unfinished_games(guest)}
    with pytest.raises(Conflict):
        actions.do_abandon(first.pk, mine)


def test_game_belongs_to_the_account_after_logging_in(host):
    game = computer_game(host)
    assert game.pk in {
        g.pk for g in actions.unfinished_games(actions.Actor(host.user_id, "new-key"))
    }


# --- presence and absent players -------------------------------------------------------------------


def test_play_waits_for_an_absent_player_then_the_seat_can_go_to_the_computer(
    host, guest, monkeypatch
):
    game = friends_room(host, [guest])
    # Half a minute after joining (which counts as being here), the guest has not opened the page.
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    before = snapshot(game)
    with pytest.raises(Conflict, match="Waiting for guesto"):
        actions.do_roll(game.pk, host, game.version)
    assert snapshot(game) == before
    guest_seat = game.seats.get(index=1)
    guest_seat.last_seen = timezone.now() - timedelta(seconds=30)
    guest_seat.save()
    with pytest.raises(Conflict, match="two minutes"):
        actions.do_replace_absent(game.pk, host, 1)
    guest_seat.last_seen = timezone.now() - timedelta(seconds=121)
    guest_seat.save()
    with pytest.raises(NotAllowed):
        actions.do_replace_absent(game.pk, anon("watcher"), 1)
    actions.do_replace_absent(game.pk, host, 1)
    assert fresh(game).seats.get(index=1).bot_controlled
    actions.do_roll(game.pk, host, fresh(game).version)  # nobody to wait for now
    assert actions.seat_connected(game.pk, guest_seat.pk)  # the player comes back
    assert not fresh(game).seats.get(index=1).bot_controlled


# --- new rounds ------------------------------------------------------------------------------------


def test_new_round_needs_every_human_and_a_move_cancels_the_request(host, guest):
    game = friends_room(host, [guest])
    everyone_here(game)
    actions.do_new_round(game.pk, host)
    game = fresh(game)
    assert game.new_round_votes == [0] and game.round == 1
    actions.do_roll(game.pk, host, game.version)  # an accepted roll cancels the request
    assert fresh(game).new_round_votes == []
    actions.do_new_round(game.pk, guest)
    actions.do_new_round(game.pk, host)
    game = fresh(game)
    assert game.round == 2 and game.new_round_votes == []
    assert game.players == [["yellow"], ["red"]]  # the first turn passes on
    assert game.state["tokens"]["red"] == [-1, -1, -1, -1]
    old = Round.objects.get(game=game, number=1)
    assert old.server_seed == SEED
    assert record_for(game, 1)["fair"]["server_seed"] == SEED
    assert "server_seed" not in record_for(game)["fair"]


def test_host_resets_alone_before_a_guest_joins(host):
    game = friends_room(host, start=False)
    actions.do_set_seat(game.pk, host, 1, "computer", "random")
    actions.do_start(game.pk, host)
    actions.do_new_round(game.pk, host)
    assert fresh(game).round == 2


@pytest.mark.parametrize(
    ("ruleset", "first"),
    [("duel", [["red"], ["blue"]]), ("twodice", [["yellow", "blue"], ["red", "green"]])],
)
def test_play_again_after_a_game(host, guest, ruleset, first):
    game = friends_room(host, [guest], ruleset=ruleset)
    actions.do_resign(game.pk, guest)
    actions.do_new_round(game.pk, host)
    assert fresh(game).round == 1  # waits for the guest
    actions.do_new_round(game.pk, guest)
    game = fresh(game)
    assert game.round == 2 and game.status == Game.Status.PLAYING
    assert game.players == first
    colours = [s.colours for s in game.seats.all()]
    assert colours == (
        [["red"], ["blue"]] if ruleset == "duel" else [["red", "green"], ["yellow", "blue"]]
    )


# --- client seeds ----------------------------------------------------------------------------------


def test_client_seed_can_be_set_before_the_first_roll_only():
    actor = anon()
    game = local_game(actor)
    actions.do_set_client_seed(game.pk, actor, 0, "lucky seven")
    with pytest.raises(NotAllowed):
        actions.do_set_client_seed(game.pk, anon("other"), 0, "mine")
    with pytest.raises(GameError):
        actions.do_set_client_seed(game.pk, actor, 0, "bad|seed")
    actions.do_roll(game.pk, actor, fresh(game).version)
    assert fresh(game).client_seed.startswith("lucky seven|")
    with pytest.raises(Conflict):
        actions.do_set_client_seed(game.pk, actor, 1, "too late")


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
    actions.core._STATES.clear()
    assert actions.engine_state(game).to_json() == game.state
    step(game, me(actor))
