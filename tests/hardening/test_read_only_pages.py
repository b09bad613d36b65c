"""Pages that only show something take GET and HEAD: a POST to one is refused with 405, an Allow
header and a sentence (ludopat/readable_errors.py), the same for a plain request and an htmx one,
signed in or not, before any login redirect or lookup (a junk POST costs no page render)."""

from __future__ import annotations

import pytest
from django.test import Client

from ludopat.readable_errors import sentence

pytestmark = pytest.mark.django_db

# Pages that need no object of their own: GET still shows them.
SHOWN = ["/", "/tournaments/", "/tournaments/prizes", "/leaderboard/", "/leaderboard/ratings/",
         "/staked/", "/staked/rooms", "/rules/", "/rules/classic/", "/u/pat/", "/live/"]  # fmt: skip
SHOWN_SIGNED_IN = ["/friends/", "/accounts/wallet/", "/accounts/two-factor/"]
# Pages of an object; the method is refused before the object is looked up, so none need exist.
OF_AN_OBJECT = ["/tournaments/1/", "/challenges/1/", "/games/nosuchgame/replay/",
                "/games/nosuchgame/verify/", "/replays/nosuchround/",
                "/replays/nosuchround/record.json"]  # fmt: skip
READ_ONLY = SHOWN + SHOWN_SIGNED_IN + OF_AN_OBJECT
REFUSAL = sentence(405, "POST", "GET, HEAD")


@pytest.fixture
def clients(django_user_model, redis_client) -> dict[str, Client]:
    signed_in = Client()
    signed_in.force_login(django_user_model.objects.create_user("pat"))
    return {"signed out": Client(), "signed in": signed_in}


def test_read_only_pages_refuse_post_with_405(clients):
    for who, client in clients.items():
        for url in READ_ONLY:
            for headers in ({}, {"HX-Request": "true"}):
                answer = client.post(url, {"junk": "x"}, headers=headers)
                what = f"POST {url} {who} {headers}"
                assert answer.status_code == 405, what
                assert answer["Allow"] == "GET, HEAD", what
                assert answer["Content-Type"].startswith("text/plain"), what
                assert answer.content.decode() == REFUSAL, what


def test_read_only_pages_still_answer_get_and_head(clients):
    assert REFUSAL == "This address does not accept POST requests; use GET, HEAD."
    for who, client in clients.items():
        urls = SHOWN + (SHOWN_SIGNED_IN if who == "signed in" else [])
        for url in urls:
            assert client.get(url).status_code == 200, f"GET {url} {who}"
            assert client.head(url).status_code == 200, f"HEAD {url} {who}"


def test_staked_lobby_still_shows_a_refused_form_after_a_post(clients):
    """The staked lobby is also the answer to its forms' refused POSTs (staking_views.lobby_page):
    only its own URL is GET-only."""
    answer = clients["signed in"].post("/staked/new", {"stake": "-1"})
    assert answer.status_code == 400
    assert 'data-testid="staked-create-form"' in answer.content.decode()


# Pages with a form: GET shows it, POST sends it; any other method is refused the same way (before,
# the game setup answered a bare "Use GET or POST." with no Allow, and the challenge form showed
# itself to a PUT or a DELETE).
FORM_PAGES = ["/games/new/computer/", "/games/new/friends/", "/u/pat/challenge/"]


def test_form_pages_refuse_other_methods_with_405(clients):
    signed_in = clients["signed in"]
    for url in FORM_PAGES:
        assert signed_in.get(url).status_code == 200, url
        for method in ("put", "delete", "patch"):
            answer = getattr(signed_in, method)(url)
            what = f"{method.upper()} {url}"
            assert answer.status_code == 405, what
            assert answer["Allow"] == "GET, POST", what
            assert sentence(405, method.upper(), "GET, POST") in answer.content.decode(), what
