"""The coin ledger: grants, top-ups, posting rules, append-only history, the invariant checker, the wallet
page. Every test ends with check_ledger's invariants (tests.ledger_checks)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.test import Client

from accounts.ledger import books, grants, rules
from accounts.ledger.adjustments import adjust_coins
from accounts.ledger.errors import NotEnoughCoins, TopUpRefused
from accounts.ledger.history import balance_of
from accounts.ledger.models import (
    LedgerAccount,
    LedgerEntry,
    LedgerIsAppendOnly,
    LedgerTransaction,
)
from accounts.ledger.posting import post
from tests.factories import verified_client
from tests.ledger_checks import assert_ledger_ok, ledger_stays_balanced  # noqa: F401

User = get_user_model()
PASSWORD = "lucky-six-66-pawns"
Kind = LedgerTransaction.Kind


@pytest.fixture
def alice():
    return User.objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def bob():
    return User.objects.create_user("bob", "bob@example.com", PASSWORD)


def counts() -> tuple[int, int]:
    return LedgerTransaction.objects.count(), LedgerEntry.objects.count()


# Grants: every account, however created


def test_a_new_account_gets_the_welcome_grant(alice):
    assert balance_of(alice.pk) == 1000
    grant = LedgerTransaction.objects.get(kind=Kind.GRANT)
    assert sorted(e.amount for e in grant.entries.all()) == [-1000, 1000]


def test_signing_up_through_the_site_grants_coins():
    client = Client()
    r = client.post(
        "/accounts/signup/", {"username": "carol", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert r.status_code == 302
    assert balance_of(User.objects.get(username="carol").pk) == 1000


def test_createsuperuser_and_admin_made_accounts_get_it_too():
    call_command("createsuperuser", username="root", email="r@example.com", interactive=False)
    admin = User.objects.get(username="root")
    assert balance_of(admin.pk) == 1000
    admin.set_password(PASSWORD)
    admin.save()
    client = verified_client(admin)
    client.post(
        "/admin/accounts/user/add/",
        {
            "username": "dora",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert balance_of(User.objects.get(username="dora").pk) == 1000


def test_the_grant_is_a_setting(settings):
    settings.LUDOPAT_GRANT = 250
    user = User.objects.create_user("erin")
    assert balance_of(user.pk) == 250


def test_saving_an_account_again_grants_nothing_more(alice):
    alice.first_name = "Alice"
    alice.save()
    assert balance_of(alice.pk) == 1000
    assert LedgerTransaction.objects.filter(kind=Kind.GRANT).count() == 1


def test_accounts_from_before_the_ledger_get_the_grant_from_the_migration():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("accounts.migrations.0002_ledger")
    User.objects.bulk_create([User(username="old1"), User(username="old2")])  # no signal
    assert LedgerAccount.objects.filter(kind="wallet").count() == 0
    migration.grant_existing_accounts(apps, None)
    migration.grant_existing_accounts(apps, None)  # a second run finds nobody left to grant
    for name in ("old1", "old2"):
        assert balance_of(User.objects.get(username=name).pk) == 1000
    assert LedgerTransaction.objects.filter(kind=Kind.GRANT).count() == 2


# Posting: integers, balanced, never below zero


def test_a_transaction_must_balance(alice):
    wallet = books.wallet_of(alice.pk)
    before = counts()
    with pytest.raises(ValueError, match="sum to zero"):
        post(Kind.ADJUSTMENT, "typo", [(books.source(), -10), (wallet, 11)])
    assert counts() == before


@pytest.mark.parametrize("amount", [1.5, True, "10", 0.0, 0])
def test_amounts_are_non_zero_whole_numbers(alice, amount):
    before = counts()
    with pytest.raises(ValueError, match="whole number"):
        post(
            Kind.ADJUSTMENT, "odd", [(books.source(), amount), (books.wallet_of(alice.pk), amount)]
        )
    assert counts() == before


def test_a_wallet_cannot_pay_more_than_it_has(alice):
    before = counts()
    with pytest.raises(NotEnoughCoins, match=r"holds 1,000 coins; 1,001 can.t be taken"):
        adjust_coins(alice.pk, -1001, "too much")
    assert counts() == before
    assert balance_of(alice.pk) == 1000
    adjust_coins(alice.pk, -1000, "all of it")
    assert balance_of(alice.pk) == 0


def test_the_database_refuses_a_negative_wallet_even_bypassing_python(alice):
    wallet = books.wallet_of(alice.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(pk=wallet.pk).update(balance=-1)
    assert balance_of(alice.pk) == 1000


def test_rake_is_rounded_in_the_house_disfavour(settings):
    assert rules.rake_of(200) == 20
    assert rules.rake_of(19) == 1
    assert rules.rake_of(9) == 0
    settings.LUDOPAT_RAKE_BP = 250
    assert rules.rake_of(1000) == 25
    assert rules.rake_of(39) == 0


# Append-only


def test_entries_and_transactions_are_never_changed_or_deleted(alice):
    entry = LedgerEntry.objects.filter(account__user=alice).get()
    entry.amount = 5000
    with pytest.raises(LedgerIsAppendOnly):
        entry.save()
    with pytest.raises(LedgerIsAppendOnly):
        entry.delete()
    with pytest.raises(LedgerIsAppendOnly):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=5000)
    with pytest.raises(LedgerIsAppendOnly):
        LedgerEntry.objects.all().delete()
    with pytest.raises(LedgerIsAppendOnly):
        entry.transaction.delete()
    with pytest.raises(LedgerIsAppendOnly):
        LedgerTransaction.objects.all().update(reason="rewritten")
    with pytest.raises(LedgerIsAppendOnly):
        books.wallet_of(alice.pk).delete()
    assert balance_of(alice.pk) == 1000


def test_a_user_with_coin_history_cannot_be_deleted(alice):
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        alice.delete()


def test_the_admin_shows_the_ledger_read_only(alice):
    root = User.objects.create_superuser("root", "r@example.com", PASSWORD)
    client = verified_client(root)
    entry = LedgerEntry.objects.filter(account__user=alice).get()
    assert client.get("/admin/accounts/ledgerentry/").status_code == 200
    assert (
        client.get(f"/admin/accounts/ledgertransaction/{entry.transaction_id}/change/").status_code
        == 200
    )
    assert client.get("/admin/accounts/ledgerentry/add/").status_code == 403
    assert (
        client.post(f"/admin/accounts/ledgerentry/{entry.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    r = client.post(f"/admin/accounts/ledgerentry/{entry.pk}/change/", {"amount": "5000"})
    assert r.status_code == 403
    assert LedgerEntry.objects.get(pk=entry.pk).amount == 1000


# The daily top-up


def test_a_top_up_brings_a_short_player_back_to_100_once_a_day(alice, monkeypatch):
    adjust_coins(alice.pk, -970, "spent")
    assert grants.claim_top_up(alice.pk) == 70
    assert balance_of(alice.pk) == 100
    adjust_coins(alice.pk, -100, "spent again")
    with pytest.raises(TopUpRefused, match="today's top-up"):
        grants.claim_top_up(alice.pk)
    assert balance_of(alice.pk) == 0
    tomorrow = grants.utc_today() + timedelta(days=1)
    monkeypatch.setattr(grants, "utc_today", lambda: tomorrow)
    assert grants.claim_top_up(alice.pk) == 100


def test_no_top_up_for_a_player_with_100_or_more(alice):
    adjust_coins(alice.pk, -900, "spent")
    before = counts()
    with pytest.raises(TopUpRefused, match="under 100 coins; you have 100"):
        grants.claim_top_up(alice.pk)
    assert counts() == before


def test_coins_in_escrow_count_towards_the_100(alice, bob):
    from accounts.ledger import escrow
    from games.models import Game

    game = Game.objects.create(mode="friends", ruleset="twodice", stake=50)
    adjust_coins(alice.pk, -940, "spent")
    escrow.hold_stake(game.pk, alice.pk, 50, "Stake")  # 10 in the wallet, 50 held
    assert grants.coins_in_escrow(alice.pk) == 50
    assert grants.claim_top_up(alice.pk) == 40
    assert balance_of(alice.pk) == 50
    escrow.refund(game.pk, "room cancelled")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED)
    assert grants.coins_in_escrow(alice.pk) == 0
    assert balance_of(alice.pk) == 100


def test_the_database_allows_one_top_up_per_player_per_day(alice):
    from accounts.ledger.models import TopUpClaim

    adjust_coins(alice.pk, -1000, "spent")
    grants.claim_top_up(alice.pk)
    made = LedgerTransaction.objects.get(kind=Kind.TOP_UP)
    with pytest.raises(IntegrityError), transaction.atomic():
        TopUpClaim.objects.create(user=alice, day=grants.utc_today(), transaction=made)


# Escrow: closed exactly once


def test_a_pot_pays_the_winner_less_the_rake(alice, bob):
    from accounts.ledger import escrow
    from games.models import Game

    game = Game.objects.create(mode="friends", ruleset="twodice", stake=100, status="finished")
    escrow.hold_stake(game.pk, alice.pk, 100, "Stake")
    escrow.hold_stake(game.pk, bob.pk, 100, "Stake")
    assert escrow.pay_winner(game.pk, bob.pk, "won") == {alice.pk: -100, bob.pk: 80}
    assert balance_of(alice.pk) == 900
    assert balance_of(bob.pk) == 1080
    house = LedgerEntry.objects.get(account__kind="house")
    assert house.amount == 20
    assert escrow.is_closed(game.pk)


def test_an_escrow_can_be_closed_only_once(alice, bob):
    from accounts.ledger import escrow
    from games.models import Game

    game = Game.objects.create(mode="friends", ruleset="twodice", stake=100, status="finished")
    escrow.hold_stake(game.pk, alice.pk, 100, "Stake")
    escrow.hold_stake(game.pk, bob.pk, 100, "Stake")
    escrow.refund(game.pk, "voided")
    account = books.escrow_of(game.pk)
    before = counts()
    # A second closing, even one that would balance, is refused by the database's unique constraint.
    with pytest.raises(IntegrityError), transaction.atomic():
        post(
            Kind.REFUND, "again", [(books.wallet_of(alice.pk), -10), (account, 10)], closes=account
        )
    assert counts() == before


def test_not_enough_coins_for_a_stake_moves_nothing(alice):
    from accounts.ledger import escrow
    from games.models import Game

    before = counts()
    refused = pytest.raises(NotEnoughCoins, match="stake is 5,000 coins; you have 1,000")
    with refused, transaction.atomic():  # as in the room's own transaction, rolled back
        game = Game.objects.create(mode="friends", ruleset="twodice", stake=5000)
        escrow.hold_stake(game.pk, alice.pk, 5000, "Stake")
    assert counts() == before
    assert balance_of(alice.pk) == 1000


# check_ledger


def test_check_ledger_passes_on_a_sound_ledger(alice, bob, capsys):
    call_command("check_ledger")
    assert "ledger ok: 2 transactions, 4 entries" in capsys.readouterr().out


def _raw(sql: str, params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _guards_off() -> None:
    """On PostgreSQL, let raw SQL corrupt the books for this test's transaction (rolled back after it):
    the database's own guards (migration 0006) would refuse it."""
    if connection.vendor == "postgresql":
        _raw("SET CONSTRAINTS ALL IMMEDIATE", [])  # the grants' pending balance checks run now
        _raw("ALTER TABLE accounts_ledgerentry DISABLE TRIGGER USER", [])
        _raw("ALTER TABLE accounts_ledgertransaction DISABLE TRIGGER USER", [])


def test_check_ledger_names_an_unbalanced_transaction_and_a_drifted_balance(alice):
    wallet = books.wallet_of(alice.pk)
    grant = LedgerTransaction.objects.get()
    _guards_off()
    # Corruption only raw SQL could do: an extra entry, and a balance column edited in place.
    _raw(
        "INSERT INTO accounts_ledgerentry (transaction_id, account_id, amount, balance_after)"
        " VALUES (%s, %s, %s, %s)",
        [grant.pk, books.house().pk, 7, None],
    )
    _raw("UPDATE accounts_ledgeraccount SET balance = 999 WHERE id = %s", [wallet.pk])
    _raw("UPDATE accounts_ledgerentry SET balance_after = 5 WHERE account_id = %s", [wallet.pk])
    with pytest.raises(CommandError) as failure:
        call_command("check_ledger")
    text = str(failure.value)
    assert f"#{grant.pk} grant sums to 7 over 3 entries" in text
    assert "All accounts together hold 7 coins" in text
    assert "says 999, entries sum to 1000" in text
    assert "says 5, running sum 1000" in text
    # Put it right so the closing check of this test passes.
    _raw("DELETE FROM accounts_ledgerentry WHERE amount = 7", [])
    _raw("UPDATE accounts_ledgeraccount SET balance = 1000 WHERE id = %s", [wallet.pk])
    _raw("UPDATE accounts_ledgerentry SET balance_after = 1000 WHERE account_id = %s", [wallet.pk])
    assert_ledger_ok()


def test_check_ledger_notices_an_account_without_its_grant():
    User.objects.bulk_create([User(username="ghost")])
    with pytest.raises(CommandError, match=r"Accounts without a wallet .*ghost"):
        call_command("check_ledger")
    books.wallet_of(User.objects.get(username="ghost").pk)


# The wallet page and the nav


def test_the_wallet_page_shows_balance_escrow_and_history(alice):
    adjust_coins(alice.pk, -30, "Correction by a moderator")
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/wallet/").content.decode()
    assert "970" in page and "Correction by a moderator" in page
    assert page.index("Correction by a moderator") < page.index(
        "Welcome to Ludopat"
    )  # newest first
    assert "-30 coins" in page and "+1,000 coins" in page and "970 coins" in page
    words = re.sub(r"<[^>]+>", " ", page).lower()  # what the page says, not its markup
    assert "held for your games" in words and "escrow" not in words
    assert re.search(r'<time datetime="[^"]+">\d+ \w+ \d{4} \d\d:\d\d UTC</time>', page)
    assert 'data-testid="nav-balance"><span id="nav-balance">970</span> coins' in page


def test_the_wallet_history_is_paginated(alice):
    for n in range(30):
        adjust_coins(alice.pk, 1, f"bonus number {n}")
    client = Client()
    client.force_login(alice)
    first = client.get("/accounts/wallet/").content.decode()
    assert "bonus number 29" in first and "bonus number 5 " not in first
    assert "Page 1 of 2" in first
    second = client.get("/accounts/wallet/?page=2").content.decode()
    assert "bonus number 4<" in second and "Welcome to Ludopat" in second


def test_the_wallet_needs_an_account():
    r = Client().get("/accounts/wallet/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_claiming_a_top_up_from_the_wallet_page(alice):
    adjust_coins(alice.pk, -995, "spent")
    client = Client()
    client.force_login(alice)
    assert "Top up to 100 coins" in client.get("/accounts/wallet/").content.decode()
    page = client.post("/accounts/wallet/top-up/", follow=True).content.decode()
    assert "95 coins added to your wallet" in page
    assert "Top up to 100" not in page
    page = client.post("/accounts/wallet/top-up/", follow=True).content.decode()
    assert "under 100 coins; you have 100" in page
    assert balance_of(alice.pk) == 100


def test_the_nav_shows_the_balance_on_every_page(alice):
    client = Client()
    client.force_login(alice)
    assert '<span id="nav-balance">1,000</span> coins' in client.get("/").content.decode()
    assert "nav-balance" not in Client().get("/").content.decode()
