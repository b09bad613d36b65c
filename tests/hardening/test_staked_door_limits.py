"""The doors that stake coins (opening a tournament, opening and joining a staked room, quick match,
rematch) each have a per-person limit: counted against the account and the browser's session, never
the address (many players share one), high enough that a person never meets it (a burst of ten
presses, three tournaments opened in a minute), and a repeated submission of the same form (its
idempotency key) is not counted again."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.staking.rules import DEFAULT_TIMER
from games.tournaments.models import Tournament
from ludopat import throttle
from tests.games.tournaments.helpers import players
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db

NOWHERE = (
    "doesnotexist0"  # a well-formed room id that names no room: the press is counted, then refused
)
DOORS = {
    "tournament_open": ("/tournaments/new", {"size": "4", "buy_in": "100"}),
    "staked_open": ("/staked/new", {"stake": "100", "ruleset": "twodice", "timer": DEFAULT_TIMER}),
    "staked_join": (f"/staked/{NOWHERE}/join", {}),
    "quick": ("/staked/quick", {"tier": "100", "ruleset": "twodice"}),
    "rematch": (f"/staked/{NOWHERE}/rematch", {}),
}


@pytest.fixture(autouse=True)
def empty_cache(redis_client, settings):
    """Counters start from nothing; an address counts as one person, so a limit kept per address
    would show on a neighbour's first press."""
    settings.LUDOPAT_ADDRESS_RATE_FACTOR = 1


def logged_in(actor) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=actor.user_id))
    return client


def limit(door: str) -> int:
    """The door's limit (presses a person may make in its window); ten where there is none yet."""
    return throttle.rate(door)[0] if door in throttle.DEFAULT_RATES else 10


def press(client: Client, door: str, key: str = "") -> tuple[int, str]:
    url, data = DOORS[door]
    answer = client.post(url, {**data, "key": key})
    return answer.status_code, answer.content.decode()


@pytest.mark.parametrize("door", DOORS)
def test_a_burst_passes_a_flood_is_refused_per_account_not_per_address(door):
    ann, ben = players(2)
    count = limit(door)
    assert count >= 10  # ten presses in a burst pass
    client = logged_in(ann)
    codes = [press(client, door, f"key-{n}")[0] for n in range(count)]
    assert 429 not in codes
    status, page = press(client, door, "one-too-many")
    assert status == 429 and "Too many" in page
    # The account, from another browser: refused too. Another account at the same address: not.
    assert press(logged_in(ann), door, "other-browser")[0] == 429
    assert press(logged_in(ben), door, "neighbour")[0] != 429


@pytest.mark.parametrize("door", ["staked_open", "quick"])
def test_the_same_form_sent_again_is_not_counted_again(door):
    (ann,) = players(1)
    count = limit(door)
    client = logged_in(ann)
    codes = {press(client, door, "the-same-form")[0] for _ in range(count + 3)}
    assert codes == {302}  # the first press's room, every time
    assert press(client, door, "a-new-form")[0] != 429  # only one press was counted
    status, _ = press(client, door, "the-same-form")
    assert status == 302
    # The limit itself is there: it is the presses of different forms that count.
    for n in range(count):
        status, _ = press(client, door, f"form-{n}")
    assert status == 429


def test_three_tournaments_opened_in_a_minute_pass():
    (ann,) = players(1)
    client = logged_in(ann)
    for _ in range(3):
        status, _ = press(client, "tournament_open")
        assert status == 302
        (mine,) = Tournament.objects.filter(
            status=Tournament.Status.OPEN, entries__user_id=ann.user_id
        )
        client.post(f"/tournaments/{mine.pk}/leave")  # alone in it: it closes, she may open another
    assert Tournament.objects.count() == 3
