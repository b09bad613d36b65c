"""The read-only game pages: how to play, replays and fair-dice verification."""

from __future__ import annotations

import json
import re

import pytest

from games.engine.verify import verify_record
from games.reads.replay_page import replay_data
from games.web.pages import RULESETS
from tests.browser.records import play_local_game, play_record

# ---------------------------------------------------------------------------------------------------
# How to play


def test_rules_index_lists_every_rule_set(client):
    page = client.get("/rules/")
    assert page.status_code == 200
    html = page.content.decode()
    for name in ("classic", "duel", "places", "twodice"):
        assert f'href="/rules/{name}/"' in html


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_each_rule_set_has_a_how_to_play_page(client, name):
    page = client.get(f"/rules/{name}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"How to play {RULESETS[name]['title']}" in html
    assert 'id="board"' in html and 'id="dice"' in html  # the shared board and fair-dice sections
    for other in set(RULESETS) - {name}:  # links to the others
        assert f'href="/rules/{other}/"' in html


@pytest.mark.parametrize(
    ("name", "facts"),
    [
        ("classic", ["pair", "third 6 is cancelled", "2 tokens", "travelled"]),
        ("duel", ["opposite corner", "Only a 6 earns another roll", "Red starts every round"]),
        ("places", ["cancel all three", "10, 6, 3 and 0"]),
        ("twodice", ["double six", "no safe squares", "Kill to get out", "total"]),
    ],
)
def test_rule_pages_state_the_rules_that_set_them_apart(client, name, facts):
    html = client.get(f"/rules/{name}/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    for fact in facts:
        assert fact.lower() in text.lower(), f"{name} rules don't mention {fact!r}"


def test_places_rules_explain_the_up_way_pairs_and_hold_options(client):
    html = client.get("/rules/places/").content.decode()
    assert 'id="pairs"' in html and 'id="hold"' in html
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "a 2 moves it 1 square, a 4 moves it 2, a 6 moves it 3" in text
    assert "On a 1, 3 or 5 a pair can't move" in text
    assert "hand" in text and "owe" in text


def test_an_unknown_rule_set_is_a_404_that_says_so(client):
    page = client.get("/rules/snakes/")
    assert page.status_code == 404
    assert "No such rule set" in page.content.decode()
    assert 'href="/rules/"' in page.content.decode()


# ---------------------------------------------------------------------------------------------------
# Replay data (the engine replaying a record, no database)


@pytest.mark.parametrize("ruleset", ["classic", "duel", "places", "twodice"])
def test_replay_data_has_one_step_per_action_ending_in_the_result(ruleset):
    record = play_record(ruleset)
    data = replay_data(record)
    steps = data["steps"]
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["text"] == "The game begins."
    assert all(p == -1 for tokens in steps[0]["tokens"].values() for p in tokens)
    assert steps[-1]["status"] == "finished" and data["finished"]
    assert "Game over" in steps[-1]["text"]
    assert steps[1]["text"].startswith("Alice rolled ")  # who rolled, by name
    winner = data["places"][0].split(" (")[0]  # "Alice (red)" in the heading
    assert any(f"{winner} finished 1st." in step["text"] for step in steps)
    json.dumps(data)  # embeddable as it is


def test_replay_steps_follow_the_record():
    record = play_record("classic")
    steps = replay_data(record)["steps"]
    first_roll = record["actions"][0]["roll"]
    assert steps[1]["dice"] == first_roll
    number = first_roll[0]
    assert steps[1]["text"] == f"Alice rolled {number}." + (
        "" if number == 6 else f" No move with a {number}: turn passes to Bob."
    )


def test_replay_geometry_puts_duel_blue_opposite_red():
    duel = replay_data(play_record("duel"))["geometry"]
    classic = replay_data(play_record("classic", players=[["red"], ["blue"]]))["geometry"]
    # Duel's blue plays from corner 2 (bottom right), where yellow usually sits.
    assert (
        duel["blue"]["path"][0]
        == replay_data(play_record("classic"))["geometry"]["yellow"]["path"][0]
    )
    assert classic["blue"]["path"][0] != duel["blue"]["path"][0]
    assert duel["red"]["path"][56] != duel["blue"]["path"][56]


def test_replay_data_refuses_a_record_with_an_illegal_action():
    record = play_record("classic")
    record["actions"][0] = {"roll": [7]}
    from games.engine import EngineError

    with pytest.raises(EngineError):
        replay_data(record)


def test_the_test_records_are_fair():
    assert verify_record(play_record("twodice"))[0]


# ---------------------------------------------------------------------------------------------------
# Game pages


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["replay", "verify"])
def test_a_missing_game_is_a_404_with_a_clear_message(client, page):
    response = client.get(f"/games/no-such-game/{page}/")
    assert response.status_code == 404
    assert "No such game" in response.content.decode()


def _embedded(html: str, element_id: str):
    match = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S
    )
    assert match, f"no {element_id} in the page"
    return json.loads(match.group(1))


@pytest.mark.django_db
def test_the_replay_page_carries_every_step_of_a_finished_game(client):
    from games.reads.records import record_for

    game = play_local_game(finish=True)
    assert game.status == "finished"
    page = client.get(f"/games/{game.pk}/replay/")
    assert page.status_code == 200
    html = page.content.decode()
    data = _embedded(html, "replay-data")
    record = record_for(game)
    assert len(data["steps"]) == len(record["actions"]) + 1
    assert data["steps"][-1]["status"] == "finished"
    assert [p["name"].split(" (")[0] for p in data["players"]] == ["Alice", "Bob"]
    assert data["places"][0] in html  # the winner is named
    assert f'href="/games/{game.pk}/verify/"' in html
    assert 'data-go="next"' in html and 'type="range"' in html


@pytest.mark.django_db
def test_an_unfinished_game_has_no_replay_yet(client):
    game = play_local_game(finish=False)
    html = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "still being played" in html
    assert "replay-data" not in html


@pytest.mark.django_db
def test_a_round_that_does_not_exist_is_a_404(client):
    game = play_local_game(finish=False)
    assert client.get(f"/games/{game.pk}/replay/?round=7").status_code == 404
    assert client.get(f"/games/{game.pk}/replay/?round=x").status_code == 404


@pytest.mark.django_db
def test_the_verify_page_points_at_the_game_record(client):
    game = play_local_game(finish=True)
    page = client.get(f"/games/{game.pk}/verify/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-record-url="/games/{game.pk}/record.json"' in html
    assert "js/verify.js" in html
    record = client.get(f"/games/{game.pk}/record.json").json()
    assert verify_record(record)[0]  # what the page will check does verify


@pytest.mark.django_db
def test_an_earlier_round_can_be_replayed_and_verified(client):
    from games.actions import Actor, do_new_round

    game = play_local_game(finish=False)
    do_new_round(game.pk, Actor(None, "owner-key"))  # a pass & play table starts one at once
    html = client.get(f"/games/{game.pk}/replay/?round=1").content.decode()
    data = _embedded(html, "replay-data")
    assert len(data["steps"]) == 7  # the six actions of round 1, and the start
    assert f'href="/games/{game.pk}/verify/?round=1"' in html
    assert "still being played" in client.get(f"/games/{game.pk}/replay/").content.decode()

    verify_page = client.get(f"/games/{game.pk}/verify/?round=1").content.decode()
    assert f'data-record-url="/games/{game.pk}/record.json?round=1"' in verify_page
    record = client.get(f"/games/{game.pk}/record.json?round=1").json()
    assert verify_record(record)[0]  # round 1's seed is revealed now that the round is over
    assert client.get(f"/games/{game.pk}/verify/?round=3").status_code == 404
