"""The ledger defended by the database and watched by beat.

On PostgreSQL the database itself refuses a transaction whose entries don't sum to zero (at commit) and
any change or deletion of an entry or a transaction, so not even raw SQL or a shell session rewrites
the books; wallets' cached balance column stays updatable. Everywhere, beat's hourly `check_ledger`
logs a fault at ERROR and shows it to the Admin group on every page until the ledger is sound again.
"""

from __future__ import annotations

import logging

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test import Client

from accounts.ledger import books
from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction
from accounts.ledger.posting import post
from accounts.moderation import roles
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

User = get_user_model()
ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
on_postgres_only = pytest.mark.skipif(
    not ON_POSTGRES, reason="the database-level guards are PostgreSQL's (CI runs them)"
)
BANNER = 'data-testid="ledger-alarm"'


def _raw(sql: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@on_postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_transaction_whose_entries_do_not_sum_to_zero():
    alice = User.objects.create_user("alice")
    wallet, source = books.wallet_of(alice.pk), books.source()
    before = (LedgerTransaction.objects.count(), LedgerEntry.objects.count())
    # Raw SQL, as a shell session or a bug bypassing accounts.ledger.posting would write it: the
    # deferred check runs at commit, once all of the transaction's entries are in.
    with pytest.raises(IntegrityError, match="sum to zero"), transaction.atomic():  # noqa: PT012  refused at commit, after both inserts
        _raw(
            "INSERT INTO accounts_ledgertransaction (kind, reason, created)"
            " VALUES ('adjustment', 'free coins', now())"
        )
        _raw(
            "INSERT INTO accounts_ledgerentry (transaction_id, account_id, amount, balance_after)"
            " VALUES (currval(pg_get_serial_sequence('accounts_ledgertransaction', 'id')), %s, 500,"
            " NULL)",
            [source.pk],
        )
    # An entry added later to a transaction that was balanced is refused too.
    grant = LedgerTransaction.objects.get(kind="grant")
    with pytest.raises(IntegrityError, match="sum to zero"), transaction.atomic():
        _raw(
            "INSERT INTO accounts_ledgerentry (transaction_id, account_id, amount, balance_after)"
            " VALUES (%s, %s, 7, NULL)",
            [grant.pk, books.house().pk],
        )
    assert (LedgerTransaction.objects.count(), LedgerEntry.objects.count()) == before
    # What the site writes (balanced, through the one writer) still goes in.
    post("adjustment", "a correction", [(wallet, 5), (source, -5)])
    assert balance_of(alice.pk) == 1005


@on_postgres_only
@pytest.mark.django_db
def test_the_database_refuses_to_change_or_delete_entries_and_transactions():
    alice = User.objects.create_user("alice")
    wallet = books.wallet_of(alice.pk)
    for sql in (
        "UPDATE accounts_ledgerentry SET amount = amount * 2",
        "DELETE FROM accounts_ledgerentry",
        "UPDATE accounts_ledgertransaction SET reason = 'rewritten'",
        "DELETE FROM accounts_ledgertransaction",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            _raw(sql)
    assert sorted(LedgerEntry.objects.values_list("amount", flat=True)) == [-1000, 1000]
    # The cached balance column is not history: it moves with every posting.
    with transaction.atomic():
        LedgerAccount.objects.filter(pk=wallet.pk).update(balance=1000)
    assert balance_of(alice.pk) == 1000


@pytest.mark.django_db
def test_beat_checks_the_ledger_hourly_and_admins_see_a_fault_until_it_is_put_right(caplog):
    from accounts.tasks import check_ledger

    schedule = settings.CELERY_BEAT_SCHEDULE["check-ledger"]
    assert schedule["task"] == "accounts.tasks.check_ledger" and schedule["schedule"] == 3600.0

    alice = User.objects.create_user("alice")
    admin = User.objects.create_user("root", is_staff=True)
    admin.groups.add(Group.objects.get(name=roles.ADMIN))
    moderator = User.objects.create_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name=roles.MODERATOR))
    admin_page, player_page, moderator_page = Client(), Client(), Client()
    admin_page.force_login(admin)
    player_page.force_login(alice)
    moderator_page.force_login(moderator)

    assert check_ledger() == []
    assert BANNER not in admin_page.get("/").content.decode()

    wallet = books.wallet_of(alice.pk)
    LedgerAccount.objects.filter(pk=wallet.pk).update(balance=999)  # a drifted cached balance
    with caplog.at_level(logging.ERROR):
        found = check_ledger()
    assert found and any(
        r.levelno == logging.ERROR and "says 999, entries sum to 1000" in r.getMessage()
        for r in caplog.records
    )
    for path in ("/", "/leaderboard/", "/accounts/wallet/"):
        page = admin_page.get(path).content.decode()
        assert BANNER in page and "says 999, entries sum to 1000" in page, path
    assert BANNER not in player_page.get("/").content.decode()
    assert BANNER not in moderator_page.get("/").content.decode()

    LedgerAccount.objects.filter(pk=wallet.pk).update(balance=1000)
    assert check_ledger() == []
    assert BANNER not in admin_page.get("/").content.decode()
