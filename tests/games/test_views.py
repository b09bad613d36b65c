"""The game over HTTP: setup forms, the page, htmx action POSTs and their refusals, records."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games import actions, engine
from games.core import actors
from games.models import Action, Game
from tests.games.webplay import SEED, awaiting_move, fresh, play_until

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


def start(client, mode="computer", **fields) -> Game:
    data = {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy", **fields}
    response = client.post(f"/games/new/{mode}/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    return Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])


def browser_actor(client):
    key = client.session[actors.PLAYER_KEY]
    return actors.Actor(None, key)


def test_home_has_a_setup_form_for_each_mode(client):
    html = client.get("/").content.decode()
    for testid in ("setup-computer", "setup-local", "computer-submit", "local-name-1"):
        assert f'data-testid="{testid}"' in html
    assert "friends-signup" in html  # rooms need an account


def test_setup_screens_and_unknown_modes(client):
    assert client.get("/games/new/computer/").status_code == 200
    assert client.get("/games/new/local/").status_code == 200
    assert client.get("/games/new/friends/").status_code == 302  # to the log-in page
    assert client.get("/games/new/battle/").status_code == 404
    bad = client.post("/games/new/computer/", {"ruleset": "chess", "players": "2"})
    assert bad.status_code == 400


def test_vs_computer_and_pass_and_play_start_from_the_forms(client):
    game = start(client, "computer", players="4", level_3="strong", level_4="random")
    assert [s.level for s in game.seats.all()][1:] == ["greedy", "strong", "random"]
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="roll"' in html and game.server_seed_sha256 in html
    local = start(
        client,
        "local",
        ruleset="places",
        players="3",
        pairs="on",
        hold="on",
        kind_1="local",
        name_1="Ann",
        kind_2="local",
        name_2="Ben",
        kind_3="computer",
        level_3="strong",
    )
    assert local.options == {"pairs": True, "hold": True}
    assert [s.display_name for s in local.seats.all()][:2] == ["Ann", "Ben"]
    home = client.get("/").content.decode()
    assert f'data-testid="continue-{game.pk}"' in home and f"continue-{local.pk}" in home


def test_roll_and_move_over_htmx_return_the_new_board(client):
    game = start(client)
    response = client.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert response.status_code == 200
    assert f'data-version="{game.version + 1}"' in response.content.decode()
    actor = browser_actor(client)
    game = play_until(game, lambda seat: actor, awaiting_move)
    m = engine.legal_moves(actions.engine_state(game))[0]
    data = {"version": game.version, "colour": m.colour, "index": m.index}
    response = client.post(f"/games/{game.pk}/move", data, **HTMX)
    assert response.status_code == 200
    assert fresh(game).version == game.version + 1


def test_plain_post_redirects_to_the_game(client):
    game = start(client)
    response = client.post(f"/games/{game.pk}/roll", {"version": game.version})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"


def unchanged(game):
    game = fresh(game)
    return game.version, Action.objects.filter(game=game).count()


def test_bad_requests_get_clear_4xx_answers_and_change_nothing(client):
    game = start(client)
    before = unchanged(game)
    url = f"/games/{game.pk}"
    cases = [
        (f"{url}/roll", {"version": "zzz"}, 400, "version"),
        (f"{url}/move", {"version": game.version, "colour": "mauve", "index": 0}, 400, "colour"),
        (f"{url}/move", {"version": game.version, "colour": "red", "index": 0}, 409, "roll"),
        (f"{url}/roll", {"version": game.version - 1}, 409, "board changed"),
        ("/games/doesnotexist/roll", {"version": 1}, 404, "no game"),
        ("/games/doesnotexist/join", {}, 404, "no game"),
    ]
    for path, data, status, words in cases:
        for headers in (HTMX, {}):
            response = client.post(path, data, **headers)
            assert response.status_code == status, (path, data, response.content[:300])
            assert words in response.content.decode().lower()
    assert client.get(f"{url}/roll").status_code == 405
    assert client.get("/games/doesnotexist/").status_code == 404
    assert "no game" in client.get("/games/doesnotexist/").content.decode().lower()
    assert client.get("/games/doesnotexist/record.json").status_code == 404
    assert unchanged(game) == before


def test_stale_version_answer_carries_the_current_board(client):
    game = start(client)
    client.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    response = client.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert 'id="game-live"' in html and f'data-version="{fresh(game).version}"' in html


def test_json_body_actions(client):
    game = start(client)
    response = client.post(
        f"/games/{game.pk}/roll", "[1, 2]", content_type="application/json", **HTMX
    )
    assert response.status_code == 400
    response = client.post(
        f"/games/{game.pk}/roll",
        json.dumps({"version": game.version}),
        content_type="application/json",
        **HTMX,
    )
    assert response.status_code == 200


def test_a_spectator_cannot_act(client, django_user_model):
    game = start(client)
    other = type(client)()
    other.force_login(django_user_model.objects.create_user("nosy"))
    page = other.get(f"/games/{game.pk}/").content.decode()
    assert 'data-testid="roll"' not in page  # watching: no controls
    response = other.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert response.status_code == 403
    assert "watching" in response.content.decode()
    assert other.post(f"/games/{game.pk}/abandon", {}).status_code == 403


def test_floods_are_throttled(client, settings):
    settings.LUDOPAT_ACTION_RATE = (5, 60)
    game = start(client)
    codes = [
        client.post(f"/games/{game.pk}/roll", {"version": 0}, **HTMX).status_code for _ in range(8)
    ]
    assert codes[:5] == [409] * 5 and codes[5:] == [429] * 3
    response = client.post(f"/games/{game.pk}/roll", {"version": 0}, **HTMX)
    assert "Too many" in response.content.decode()


def test_friend_room_invitation_flow(client, django_user_model):
    host = django_user_model.objects.create_user("hosty")
    client.force_login(host)
    response = client.post("/games/new/friends/", {"ruleset": "duel", "players": "2"})
    game = Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-testid="invite-link"' in page and 'data-testid="copy-invite"' in page
    visitor = type(client)()
    html = visitor.get(f"/games/{game.pk}/").content.decode()
    assert f"/accounts/signup/?next=/games/{game.pk}/" in html
    assert visitor.post(f"/games/{game.pk}/join", {}, **HTMX).status_code == 403
    friend = django_user_model.objects.create_user("friendo")
    visitor.force_login(friend)
    assert visitor.post(f"/games/{game.pk}/join", {}, **HTMX).status_code == 200
    assert fresh(game).seats.get(index=1).user == friend
    response = client.post(f"/games/{game.pk}/start", {"version": fresh(game).version}, **HTMX)
    assert response.status_code == 200
    assert fresh(game).status == Game.Status.PLAYING


def test_record_json_replays_to_the_stored_state(client):
    game = start(client)
    actor = browser_actor(client)
    game = play_until(game, lambda seat: actor, lambda g: g.version > 30)
    record = client.get(f"/games/{game.pk}/record.json").json()
    assert record["format"] == "ludopat-record/1"
    assert record["names"] == ["You", "Yellow computer"]
    assert record["fair"]["server_seed_sha256"] == game.server_seed_sha256
    assert "server_seed" not in record["fair"]  # not before the end
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=True,
    )
    state = json.loads(done.stdout)
    state.pop("legal")
    assert state == fresh(game).state
    client.post(f"/games/{game.pk}/resign", {}, **HTMX)
    record = client.get(f"/games/{game.pk}/record.json").json()
    assert record["fair"]["server_seed"] == SEED
    # The stored results: neither the computer nor a player without an account is ranked.
    assert [p["points"] for p in record["result"]["places"]] == [0, 0]
    why = [p["not_counted"] for p in record["result"]["places"]]
    assert why == ["computers aren't ranked", "guests aren't ranked"]
    assert record["result"]["places"][0]["name"] == "Yellow computer"
