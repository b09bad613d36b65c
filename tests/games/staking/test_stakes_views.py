"""The staked lobby and the staked room's page, through the real views: what a player sees and clicks."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.ledger.history import balance_of
from games import actions
from games.models import Game
from games.staking.rooms import do_join_staked_room
from tests.factories import finished_staked_game
from tests.games.webplay import member
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0


def player(django_user_model, name):
    user = django_user_model.objects.create_user(name)
    django_user_model.objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timedelta(days=2)
    )
    client = Client()
    client.force_login(user)
    return user, client


@pytest.fixture
def ann(django_user_model):
    return player(django_user_model, "ann")


@pytest.fixture
def bea(django_user_model):
    return player(django_user_model, "bea")


def text(response) -> str:
    return response.content.decode()


def key_in(page: str) -> str:
    return re.search(r'name="key" value="([^"]+)"', page).group(1)


def open_room(client, stake="100", ruleset="twodice", timer="15", key="k1"):
    return client.post(
        "/staked/new", {"stake": stake, "ruleset": ruleset, "timer": timer, "key": key}
    )


def test_the_nav_leads_to_the_lobby(ann):
    _, client = ann
    page = text(client.get("/"))
    assert 'href="/staked/">Staked rooms</a>' in page
    assert Client().get("/staked/").status_code == 200


def test_opening_a_room_lists_it_in_the_lobby(ann, bea):
    user, client = ann
    r = open_room(client, "250")
    game = Game.objects.get(owner=user)
    assert r.status_code == 302 and r["Location"] == f"/games/{game.pk}/"
    assert balance_of(user.pk) == 750
    lobby = text(bea[1].get("/staked/"))
    row = lobby[lobby.index('data-testid="staked-room"') :]
    assert "250</strong> coins" in row and "Two dice" in row and "15 s" in row and "ann" in row
    assert "0 won, 0 lost" in row and "Join for 250" in row
    assert "Join for 250" in text(bea[1].get("/staked/rooms"))


def stake_input(page: str) -> str:
    return re.search(r'<input[^>]*name="stake"[^>]*>', page).group(0)


def test_a_refused_stake_says_why_next_to_the_field_keeps_it_and_moves_nothing(ann):
    user, client = ann
    for bad in ("1e3", "0.5", "10abc", "-5", "0", "99999"):
        r = open_room(client, bad, key=f"bad-{bad}")
        page = text(r)
        assert r.status_code == 400
        field = stake_input(page)
        assert f'value="{bad}"' in field and 'aria-invalid="true"' in field  # what was typed
        assert "room-stake_error" in field  # the input names its error
        assert re.search(
            r'id="room-stake_error"[^>]*>A stake is a whole number of coins from 10 to 10,000\.<',
            page,
        )
    assert balance_of(user.pk) == 1000 and not Game.objects.exists()


def test_a_stake_over_the_wallet_is_explained_at_the_field(ann):
    user, client = ann
    r = open_room(client, "5000")
    assert r.status_code == 409 and 'value="5000"' in stake_input(text(r))
    refusal = r"id=\"room-stake_error\"[^>]*>This room(&#x27;|')s stake is 5,000 coins"
    assert re.search(refusal, text(r))
    assert balance_of(user.pk) == 1000 and not Game.objects.exists()


def test_a_second_room_is_refused_above_the_form_not_at_the_stake(ann):
    _, client = ann
    client.post("/staked/quick", {"tier": "100", "ruleset": "twodice", "key": "q"})
    # The lobby shows the entry instead of the forms, but a page opened before still posts.
    page = text(open_room(client, "100", key="second"))
    assert "You are waiting for a quick match at 100 coins: cancel it" in page
    assert "room-stake_error" not in page


def test_the_forms_show_no_stray_key_label(ann):
    page = text(ann[1].get("/staked/"))
    assert ">Key<" not in page and 'type="hidden" name="key"' in page


def test_a_repeated_submission_opens_one_room(ann):
    user, client = ann
    first = open_room(client, "100", key="same")
    again = open_room(client, "100", key="same")
    assert first["Location"] == again["Location"]
    assert Game.objects.count() == 1 and balance_of(user.pk) == 900


def test_joining_from_the_lobby_starts_the_game(ann, bea):
    open_room(ann[1], "100")
    game = Game.objects.get()
    lobby = text(bea[1].get("/staked/"))
    r = bea[1].post(f"/staked/{game.pk}/join", {"key": key_in(lobby[lobby.index("staked-room") :])})
    assert r["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert balance_of(bea[0].pk) == 900
    assert "no-staked-rooms" in text(bea[1].get("/staked/rooms"))  # full rooms leave the list


def test_joining_your_own_room_is_refused_with_a_message(ann):
    open_room(ann[1], "100")
    game = Game.objects.get()
    page = text(ann[1].post(f"/staked/{game.pk}/join", {"key": "j"}, follow=True))
    assert "This is your own room" in page
    assert balance_of(ann[0].pk) == 900


def test_the_room_page_offers_the_stake_to_a_guest_and_cancel_to_the_host(ann, bea):
    open_room(ann[1], "100")
    game = Game.objects.get()
    guest_page = text(bea[1].get(f"/games/{game.pk}/"))
    assert "Join for 100 coins" in guest_page and "Add computer" not in guest_page
    host_page = text(ann[1].get(f"/games/{game.pk}/"))
    assert "Cancel and get my 100 coins back" in host_page and "Add computer" not in host_page
    r = bea[1].post(f"/staked/{game.pk}/join", {"key": key_in(guest_page)}, HTTP_HX_REQUEST="true")
    assert r.status_code == 204 and r["HX-Redirect"] == f"/games/{game.pk}/"
    assert Game.objects.get().status == Game.Status.PLAYING


def test_the_host_cancels_and_gets_the_stake_back(ann):
    open_room(ann[1], "100")
    game = Game.objects.get()
    page = text(ann[1].post(f"/staked/{game.pk}/cancel", {"version": game.version}, follow=True))
    assert "Room cancelled: your 100 coins are back in your wallet." in page
    assert balance_of(ann[0].pk) == 1000
    assert "no-staked-rooms" in text(ann[1].get("/staked/rooms"))


def test_quick_match_waits_then_pairs(ann, bea):
    r = ann[1].post("/staked/quick", {"tier": "100", "ruleset": "twodice", "key": "q1"})
    game = Game.objects.get()
    assert r["Location"] == f"/staked/quick/{game.pk}" and game.status == Game.Status.OPEN
    lobby = text(ann[1].get("/staked/"))
    assert "You are waiting for a quick match" in lobby
    assert f'href="/staked/quick/{game.pk}">Back to the waiting screen' in lobby
    assert "no-staked-rooms" in text(bea[1].get("/staked/rooms"))  # not listed in the lobby
    r = bea[1].post("/staked/quick", {"tier": "100", "ruleset": "twodice", "key": "q2"})
    assert r["Location"] == f"/games/{game.pk}/"
    assert Game.objects.get().status == Game.Status.PLAYING


def test_the_result_shows_each_player_coins_and_new_balance(ann, bea):
    open_room(ann[1], "100")
    game = Game.objects.get()
    do_join_staked_room(member(bea[0]), game.pk)
    actions.do_resign(game.pk, member(bea[0]))
    winner = text(ann[1].get(f"/games/{game.pk}/"))
    assert "You won 80 coins." in winner and 'data-nav-balance="1,080">1,080<' in winner
    assert "House cut: 20 coins of the 200-coin pot." in winner
    assert "You took the 180-coin prize; 100 of it was your own stake." in winner
    assert (
        "Staked game</strong>: 100 coins each, a pot of 200 coins; the winner takes 180 coins"
        in winner
    )
    loser = text(bea[1].get(f"/games/{game.pk}/"))
    assert "You lost 100 coins." in loser and 'data-nav-balance="900">900<' in loser
    assert 'data-testid="new-round"' not in loser  # no new rounds for coins
    wallet = text(ann[1].get("/accounts/wallet/"))
    assert "Payout" in wallet and "house cut 20" in wallet and "+180" in wallet and "-100" in wallet


def test_a_rematch_is_offered_on_the_result_and_joined_by_the_opponent(ann, bea):
    open_room(ann[1], "100")
    old = Game.objects.get()
    do_join_staked_room(member(bea[0]), old.pk)
    actions.do_resign(old.pk, member(bea[0]))
    loser_page = text(bea[1].get(f"/games/{old.pk}/"))
    assert "Rematch for 100 coins" in loser_page
    r = bea[1].post(
        f"/staked/{old.pk}/rematch", {"key": key_in(loser_page)}, HTTP_HX_REQUEST="true"
    )
    new = Game.objects.exclude(pk=old.pk).get()
    assert r["HX-Redirect"] == f"/games/{new.pk}/"
    assert (new.stake, new.ruleset, new.owner_id) == (100, "twodice", bea[0].pk)
    assert "You offered a rematch at 100 coins" in text(bea[1].get(f"/games/{old.pk}/"))
    winner_page = text(ann[1].get(f"/games/{old.pk}/"))
    assert "bea offers a rematch: join for 100 coins" in winner_page
    ann[1].post(f"/staked/{new.pk}/join", {"key": "rematch-join"})
    new.refresh_from_db()
    assert new.status == Game.Status.PLAYING
    assert balance_of(ann[0].pk) == 980 and balance_of(bea[0].pk) == 800


def test_the_lobby_shows_the_configured_house_cut_and_stake_bounds(ann, settings):
    settings.LUDOPAT_RAKE_BP = 250  # 2.5%
    settings.LUDOPAT_STAKE_MIN, settings.LUDOPAT_STAKE_MAX = 200, 5000
    page = text(ann[1].get("/staked/"))
    assert "the house's 2.5% cut" in page and "10%" not in page
    assert "200 to 5,000 coins" in page
    assert 'name="stake" value="100"' not in page  # a default below the configured minimum


def test_no_template_writes_a_money_number_of_its_own():
    """Every number a page shows about money comes from the settings and the ledger: no template
    falls back to a number of its own for a stake, a cut, a balance or a grant."""
    from pathlib import Path

    money = re.compile(
        r"(rake|stake|coin|balance|cut|grant|top_up|pot|percent)\w*\s*\|\s*default:\s*['\"]?\d"
    )
    root = Path(__file__).resolve().parents[3] / "templates"
    found = [
        f"{path.relative_to(root)}: {line.strip()}"
        for path in root.rglob("*.html")
        for line in path.read_text().splitlines()
        if money.search(line)
    ]
    assert not found, found


def test_the_wallet_says_in_words_how_the_pot_was_won(ann, bea):
    (ann_user, ann_client), (bea_user, _) = ann, bea
    finished_staked_game(ann_user, bea_user)  # bea resigned
    words = re.sub(r"<[^>]+>", " ", text(ann_client.get("/accounts/wallet/")))
    assert "Won the pot: the opponent resigned" in words
    assert "(resign)" not in words
