"""/metrics (ludopat/ops_views.py, ludopat/metrics.py): for the allowed addresses only, and what it
shows after a move played through the site, a socket opened and closed, a sweep of a late deadline and
a ledger check. This process's own metrics (no PROMETHEUS_MULTIPROC_DIR here; test_metrics_multiprocess
adds up several processes'). Counters only grow, so each test compares before and after."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from accounts.ledger import watch
from games import tasks
from games.models import Game
from ludopat.asgi import application
from tests.factories import member, timed_room
from tests.games.webplay import SEED

HTMX = {"HTTP_HX_REQUEST": "true"}
HOST = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 600  # no computer acts during these tests


def scrape(client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return response.content.decode()


def value(text: str, name: str, **labels: str) -> float:
    """The sample `name` with `labels` in a scrape (0 if it isn't there yet)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return sample.value
    return 0.0


@pytest.mark.django_db
def test_metrics_is_a_404_for_an_address_not_allowed(client, settings):
    refused = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == 404
    assert "ludopat_" not in refused.content.decode()
    # Any method: a 405 would say there is something here.
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 404
    assert strict.post("/no-such-page", REMOTE_ADDR="203.0.113.9").status_code == 404
    assert client.post("/metrics").status_code == 405  # from an allowed address, GET only
    # Through a proxy, even one the site trusts, an address is no key (the token is): a client
    # writing 127.0.0.1 into the header gains nothing, nor does an allowed client behind the proxy.
    settings.LUDOPAT_PROXY_COUNT = 1
    spoofed = client.get(
        "/metrics", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.9"
    )
    assert spoofed.status_code == 404
    via_proxy = client.get("/metrics", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert via_proxy.status_code == 404
    settings.LUDOPAT_PROXY_COUNT = 0
    settings.LUDOPAT_METRICS_ALLOW = ["192.0.2.7"]
    assert client.get("/metrics").status_code == 404  # 127.0.0.1 is only the default
    assert client.get("/metrics", REMOTE_ADDR="192.0.2.7").status_code == 200


# What a proxy in front of the site adds to every request it passes on (nginx's X-Forwarded-For and
# X-Real-IP, RFC 7239's Forwarded), and the header LUDOPAT_PROXY_HEADER names.
FORWARDING = {
    "HTTP_X_FORWARDED_FOR": "203.0.113.9",
    "HTTP_FORWARDED": "for=203.0.113.9",
    "HTTP_X_REAL_IP": "203.0.113.9",
    "HTTP_X_CLIENT_ADDRESS": "203.0.113.9",
}
TOKEN = "a-long-random-scrape-token"


@pytest.mark.django_db
def test_metrics_behind_a_local_proxy_needs_the_bearer_token(client, settings):
    settings.LUDOPAT_PROXY_COUNT = 0  # HTTPS=0's default: the site was not told of the proxy
    settings.LUDOPAT_PROXY_HEADER = "X-Client-Address"
    settings.LUDOPAT_METRICS_TOKEN = TOKEN
    # A stranger's request through nginx on 127.0.0.1, with any one forwarding header.
    for name, value in FORWARDING.items():
        assert client.get("/metrics", **{name: value}).status_code == 404, name
    # Prometheus' scrape with its `authorization` setting passes, through the proxy or from anywhere.
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}
    assert client.get("/metrics", **bearer, **FORWARDING).status_code == 200
    assert client.get("/metrics", **bearer, REMOTE_ADDR="198.51.100.4").status_code == 200
    assert "ludopat_" in scrape(Client(HTTP_AUTHORIZATION=f"bearer {TOKEN}"))
    # A wrong token, or none, is the ordinary 404.
    wrong = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}x"}
    assert client.get("/metrics", **wrong, **FORWARDING).status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ", **FORWARDING).status_code == 404
    # An allowed address connecting straight to daphne, with no forwarding header at all, needs none.
    assert client.get("/metrics").status_code == 200
    assert client.get("/metrics", **wrong).status_code == 200
    # No token configured: an empty one is no key.
    settings.LUDOPAT_METRICS_TOKEN = ""
    empty = {"HTTP_AUTHORIZATION": "Bearer "}
    assert client.get("/metrics", **empty, REMOTE_ADDR="198.51.100.4").status_code == 404


@pytest.mark.django_db
def test_forwarding_headers_the_site_does_not_trust_are_warned_about_once(
    client, settings, caplog, monkeypatch
):
    from ludopat import client_address

    monkeypatch.setattr(client_address, "untrusted_seen", threading.Event(), raising=False)
    settings.LUDOPAT_PROXY_COUNT = 0

    def warnings_after(**headers: str) -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="ludopat.client_address"):
            assert client.get("/health/live", **headers).status_code == 200
        return [r.getMessage() for r in caplog.records if r.name == "ludopat.client_address"]

    assert warnings_after() == []  # no proxy: nothing to say
    # A proxy count set and its header there: the address is read from it, as told.
    settings.LUDOPAT_PROXY_COUNT = 1
    assert warnings_after(HTTP_X_FORWARDED_FOR="203.0.113.9") == []
    settings.LUDOPAT_PROXY_COUNT = 0
    [warning] = warnings_after(HTTP_X_REAL_IP="203.0.113.9")
    assert "X-Real-IP" in warning and "LUDOPAT_PROXY_COUNT" in warning
    # Once per process: the log is not flooded with one line per request.
    assert warnings_after(HTTP_X_FORWARDED_FOR="203.0.113.9") == []


@pytest.mark.django_db(transaction=True)  # the push happens on commit
def test_a_move_played_through_the_site_shows_in_the_metrics(client):
    setup = {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy"}
    created = client.post("/games/new/computer/", setup)
    game = Game.objects.get(pk=created["Location"].strip("/").split("/")[-1])
    before = scrape(client)

    rolled = client.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert rolled.status_code == 200

    after = scrape(client)
    assert value(after, "ludopat_actions_total", kind="roll") == (
        value(before, "ludopat_actions_total", kind="roll") + 1
    )
    pushes = ("ludopat_action_push_seconds_count", {"action": "roll", "via": "post"})
    assert value(after, pushes[0], **pushes[1]) == value(before, pushes[0], **pushes[1]) + 1
    took = value(after, "ludopat_action_push_seconds_sum", action="roll", via="post") - value(
        before, "ludopat_action_push_seconds_sum", action="roll", via="post"
    )
    assert 0 < took < 5
    # django-prometheus' own: the POST counted by its view.
    requests = "django_http_requests_total_by_view_transport_method_total"
    rolls = {"view": "game_roll", "method": "POST"}
    assert value(after, requests, **rolls) == value(before, requests, **rolls) + 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_open_sockets_count_a_game_page_while_it_is_open(client, django_user_model):
    channel_layers.backends.clear()  # this test's event loop gets its own layer
    game = await database_sync_to_async(lambda: timed_room(*make_people(django_user_model)))()
    scrape_now = database_sync_to_async(lambda: value(scrape(client), "ludopat_open_game_sockets"))
    before = await scrape_now()
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=HOST)
    connected, _ = await ws.connect()
    assert connected
    assert await scrape_now() == before + 1
    await ws.disconnect()
    assert await scrape_now() == before
    channel_layers.backends.clear()


def make_people(django_user_model):
    return [member(django_user_model.objects.create_user(n)) for n in ("alice", "bob")]


@pytest.mark.django_db(transaction=True)  # actions are counted on commit
def test_a_sweep_shows_its_backlog_and_how_late_it_acted(client, django_user_model):
    game = timed_room(*make_people(django_user_model))
    late = timezone.now() - timedelta(seconds=3)
    Game.objects.filter(pk=game.pk).update(deadline=late, turn_deadline=late)
    before = scrape(client)

    assert tasks.sweep_deadlines() == 1  # the bot played the late player's roll

    after = scrape(client)
    assert value(after, "ludopat_sweep_overdue_deadlines") == 1
    counted = "ludopat_deadline_lateness_seconds_count"
    assert value(after, counted, by="sweeper") == value(before, counted, by="sweeper") + 1
    summed = "ludopat_deadline_lateness_seconds_sum"
    lateness = value(after, summed, by="sweeper") - value(before, summed, by="sweeper")
    assert 3 <= lateness < 10
    assert value(after, "ludopat_actions_total", kind="roll") > value(
        before, "ludopat_actions_total", kind="roll"
    )

    tasks.sweep_deadlines()  # nothing is overdue any more
    assert value(scrape(client), "ludopat_sweep_overdue_deadlines") == 0


@pytest.mark.django_db
def test_the_ledger_gauge_shows_the_last_checks_outcome(client):
    watch.check()  # an empty ledger is sound
    text = scrape(client)
    assert value(text, "ludopat_ledger_ok") == 1
    checked = value(text, "ludopat_ledger_checked_timestamp_seconds")
    assert abs(checked - timezone.now().timestamp()) < 60

    watch.LedgerCheck.objects.filter(pk=watch.ROW).update(problems="wallet 7 is negative")
    assert value(scrape(client), "ludopat_ledger_ok") == 0
