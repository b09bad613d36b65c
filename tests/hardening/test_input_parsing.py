"""Numbers are ASCII digits parsed in one place, ids must be well formed to reach a view, and JSON
from a client is a shallow object: each of these was a 500 (or a dead WebSocket consumer)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django import forms
from django.test import Client

from games.models import Game
from ludopat.asgi import application
from ludopat.client_json import MAX_DEPTH, BadJson, parse_object
from ludopat.numbers import AsciiIntegerField, page_number, parse_int
from tests.games.webplay import computer_game

HOST = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
HTMX = {"HTTP_HX_REQUEST": "true"}
NOT_ASCII_DIGITS = ["²", "٣", "３", "߃", "1e3", "0.5", "+3", "3 3", "9" * 19, "", "x", "\x00"]  # noqa: RUF001  look-alike digits are the input under test


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_only_ascii_digits_are_numbers(text):
    assert parse_int(text) is None
    with pytest.raises(forms.ValidationError):
        AsciiIntegerField().clean(text)


def test_django_integer_field_would_have_taken_other_digits():
    assert forms.IntegerField().clean("٣") == 3  # why the shared field exists
    assert (parse_int("٣"), parse_int(" 42 "), parse_int("-7", lo=0), parse_int("7", hi=6)) == (
        None, 42, None, None,
    )  # fmt: skip
    assert [page_number(p) for p in ("3", "٣", "0", None, "²")] == [3, 1, 1, 1, 1]


@pytest.fixture
def game(client, redis_client, settings) -> Game:
    settings.LUDOPAT_BOT_DELAY = 600
    setup = {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy"}
    response = client.post("/games/new/computer/", setup)
    return Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])


@pytest.mark.django_db
def test_unicode_digits_in_an_action_are_a_400_with_a_reason(client, game):
    for field, value in (("die", "²"), ("version", "٣"), ("version", "３"), ("index", "²")):  # noqa: RUF001  look-alike digits are the input under test
        data = {"version": game.version, "colour": "red", "index": "0", field: value}
        response = client.post(f"/games/{game.pk}/move", data, **HTMX)
        assert response.status_code == 400, (field, value)
        assert field in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.django_db
def test_unicode_round_numbers_are_no_such_round(client, game):
    for value in ("²", "١", "1e0", "99999999999999999999"):  # noqa: RUF001  look-alike digits are the input under test
        response = client.get(f"/games/{game.pk}/record.json", {"round": value})
        assert response.status_code == 404
        assert response.json() == {"error": "There is no such round in this game."}
    assert client.get(f"/games/{game.pk}/record.json", {"round": "1"}).status_code == 200


@pytest.mark.django_db
def test_malformed_ids_never_reach_a_view(client):
    for url in ("/games/a%00b/", "/games/a%00b/live", "/games/a%00b/record.json",
                "/games/a%00b/replay/", "/games/a%00b/verify/", "/u/a%00b/",
                f"/games/{'a' * 25}/", "/games/%C2%B2/"):  # fmt: skip
        response = client.get(url)
        assert response.status_code == 404, url
        assert "nothing at this address" in response.content.decode(), url
    response = Client().post("/games/a%00b/roll", {"version": "0"})
    assert response.status_code == 404


def test_deep_json_is_refused_before_the_parser_sees_it():
    with pytest.raises(BadJson, match="nested too deeply"):
        parse_object("[" * 5_000)
    with pytest.raises(BadJson, match="too long"):
        parse_object("[" * 100_000)
    deep_enough = json.dumps({"a": [[[[[[1]]]]]]})
    assert parse_object(deep_enough)["a"] and MAX_DEPTH >= 7
    assert parse_object('{"s": "[[[[[[[[[[[[[[[[[["}') == {"s": "[" * 18}  # brackets in strings


@pytest.mark.django_db
def test_deep_json_body_is_a_400_with_a_reason(client, game):
    for body in ("[" * 100_000, '{"version": ' + "[" * 5_000 + "]" * 5_000 + "}"):
        response = client.post(
            f"/games/{game.pk}/roll", body, content_type="application/json", **HTMX
        )
        assert response.status_code == 400
        assert "Bad request" in response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_deep_json_frame_is_an_error_frame_and_the_socket_stays(redis_client, settings):
    channel_layers.backends.clear()
    settings.LUDOPAT_BOT_DELAY = 600
    game = await database_sync_to_async(computer_game)()
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=HOST)
    assert (await ws.connect())[0]
    await ws.receive_from()
    for frame, reason in (("[" * 5_000, "nested too deeply"), ("[" * 100_000, "too long")):
        await ws.send_to(text_data=frame)
        assert reason in await ws.receive_from()
    refused = WebsocketCommunicator(application, "/ws/games/a\x00b/", headers=HOST)
    assert (await refused.connect()) == (False, 4404)
    await ws.send_to(text_data='{"resync": -1}')
    assert 'id="game-live"' in await ws.receive_from()
    await ws.disconnect()
