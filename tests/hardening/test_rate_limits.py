"""Rate limits count the client address and the account as well as the browser session, so dropping
the cookie doesn't reset them; behind a proxy the address comes from the proxy's header (for axes too)."""

from __future__ import annotations

import pytest
from axes.helpers import get_client_ip_address
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client, RequestFactory

from games.models import Game
from ludopat import client_address, throttle
from ludopat.asgi import application
from tests.games.webplay import computer_game

pytestmark = pytest.mark.django_db
NEW_GAME = {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy"}
PASSWORD = "lucky-six-66-pawns"


@pytest.fixture(autouse=True)
def empty_cache(redis_client):
    """Counters start from nothing (the fixture flushes the site's Redis)."""


def new_game_codes(clients, **extra) -> list[int]:
    return [c.post("/games/new/computer/", NEW_GAME, **extra).status_code for c in clients]


def test_dropping_the_cookie_does_not_reset_the_game_creation_limit(settings):
    settings.LUDOPAT_RATES = {"new_game": (2, 600)}
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 2
    codes = new_game_codes(Client() for _ in range(6))  # a fresh cookieless client every time
    assert codes == [302] * 4 + [429] * 2
    assert Game.objects.count() == 4
    refused = Client().post("/games/new/computer/", NEW_GAME)
    assert "Too many new games" in refused.content.decode()


def test_one_browser_is_limited_before_its_address(settings):
    settings.LUDOPAT_RATES = {"new_game": (2, 600)}
    browser = Client()
    assert new_game_codes([browser] * 3) == [302, 302, 429]
    assert new_game_codes([Client()]) == [302]  # a neighbour on the same address still may


def test_an_account_is_limited_whichever_browser_it_uses(settings, django_user_model):
    settings.LUDOPAT_RATES = {"new_game": (2, 600)}
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 100
    user = django_user_model.objects.create_user("flooder")
    clients = []
    for n in range(3):
        c = Client(REMOTE_ADDR=f"10.0.0.{n + 1}")
        c.force_login(user)
        clients.append(c)
    assert new_game_codes(clients) == [302, 302, 429]


def test_behind_the_proxy_each_client_address_counts_for_itself(settings):
    settings.LUDOPAT_PROXY_COUNT = 1
    settings.LUDOPAT_RATES = {"new_game": (1, 600)}
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 1
    first = new_game_codes([Client(), Client()], HTTP_X_FORWARDED_FOR="203.0.113.5")
    second = new_game_codes([Client()], HTTP_X_FORWARDED_FOR="203.0.113.6")
    # What the client wrote itself (left of the proxy's entry) is not trusted.
    spoofed = new_game_codes([Client()], HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.5")
    assert (first, second, spoofed) == ([302, 429], [302], [429])


def test_axes_reads_the_client_address_the_same_way(settings):
    settings.LUDOPAT_PROXY_COUNT = 1
    request = RequestFactory().post(
        "/accounts/login/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="x, 203.0.113.9"
    )
    assert get_client_ip_address(request) == "203.0.113.9"
    settings.LUDOPAT_PROXY_COUNT = 0
    assert get_client_ip_address(request) == "10.0.0.1"


def test_sign_up_is_limited_per_address(settings, django_user_model):
    settings.LUDOPAT_RATES = {"signup": (1, 3600)}
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 2
    codes = []
    for n in range(3):
        data = {"username": f"bot{n}", "password1": PASSWORD, "password2": PASSWORD}
        codes.append(Client().post("/accounts/signup/", data).status_code)
    assert codes == [302, 302, 429]
    assert django_user_model.objects.count() == 2
    data = {"username": "bot9", "password1": PASSWORD, "password2": PASSWORD}
    assert "Too many new accounts" in Client().post("/accounts/signup/", data).content.decode()


def test_password_reset_is_limited_per_mailbox_and_address(settings, django_user_model, mailoutbox):
    settings.LUDOPAT_RATES = {"password_reset": (2, 3600)}
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 100
    django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    codes = [
        Client(REMOTE_ADDR=f"10.0.1.{n}")
        .post("/accounts/password/reset/", {"email": "alice@example.com"})
        .status_code
        for n in range(4)
    ]
    assert codes == [302, 302, 429, 429]
    assert len(mailoutbox) == 2


def test_websockets_read_the_client_address_the_same_way(settings):
    scope = {
        "client": ("10.0.0.1", 5555),
        "headers": [(b"host", b"x"), (b"x-forwarded-for", b"spoofed, 203.0.113.7")],
    }
    settings.LUDOPAT_PROXY_COUNT = 1
    assert client_address.from_scope(scope) == "203.0.113.7"
    settings.LUDOPAT_PROXY_COUNT = 0
    assert client_address.from_scope(scope) == "10.0.0.1"
    # A cookieless socket still has an address to be counted by; it is not one shared "nobody".
    asker = throttle.asker_for_scope(scope)
    assert asker.handles() == [("addr:10.0.0.1", True)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_new_cookieless_socket_does_not_reset_the_action_limit(settings):
    channel_layers.backends.clear()
    settings.LUDOPAT_ACTION_RATE = (2, 60)
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 1
    settings.LUDOPAT_BOT_DELAY = 600
    game = await database_sync_to_async(computer_game)()
    path, host = f"/ws/games/{game.pk}/", [(b"origin", b"http://127.0.0.1:8000")]
    answers = []
    for _ in range(3):  # a fresh socket, without a cookie, for every action
        ws = WebsocketCommunicator(application, path, headers=[*host, (b"host", b"127.0.0.1")])
        assert (await ws.connect())[0]
        await ws.send_to(text_data='{"action": "roll", "version": 0}')
        while 'data-testid="toast"' not in (answer := await ws.receive_from()):
            pass  # what a page gets on connecting
        answers.append(answer)
        await ws.disconnect()
    assert ["watching" in a for a in answers] == [True, True, False]
    assert "Too many actions" in answers[2]
