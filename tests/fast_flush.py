"""Emptying the database after a transactional test, in milliseconds instead of seconds.

Django's TransactionTestCase ends each test with `flush`: TRUNCATE of every table, then post_migrate,
which makes every content type and permission again and, through our handler, the moderator groups.
On PostgreSQL that cost 2 to 5 s per test (measured on this project's 2-core CI machine), and about
150 tests are transactional (every browser, integration, race and socket test). Nearly all of it was
spent on work a test never needs: TRUNCATE rewrites the files of every table, and post_migrate
re-creates rows no test writes.

Here content types and permissions are kept: they come from the schema, not from a test, and keeping
them also keeps their ids, which every process of a live stack caches for its lifetime (a new id made
an admin save in a later test point at a content type that no longer existed). Every other table is
emptied with DELETE, which on tables holding one test's few rows costs milliseconds, and the groups
are made again as post_migrate makes them. Django's foreign keys are deferred, so one transaction can
delete in any order; on PostgreSQL the append-only triggers of the audit log and the ledger
(accounts/migrations) are switched off inside that transaction (the test database's owner may), so
they are on again for whatever comes next.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import TransactionTestCase

KEPT_TABLES = frozenset({"django_content_type", "auth_permission"})


def can_empty_fast(connection: BaseDatabaseWrapper) -> bool:
    return connection.vendor in ("postgresql", "sqlite")  # elsewhere, Django's own flush


def _tables_with_triggers(cursor: Any) -> list[str]:
    """Tables with triggers of their own (not the foreign keys' internal ones): PostgreSQL."""
    cursor.execute(
        "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1"
    )
    return [row[0] for row in cursor.fetchall()]


def empty_tables(connection: BaseDatabaseWrapper) -> None:
    """Every table but the schema's own rows emptied, and the moderator groups made again."""
    from accounts.moderation.roles import ensure_roles

    quote = connection.ops.quote_name
    tables = sorted(
        set(connection.introspection.django_table_names(only_existing=True, include_views=False))
        - KEPT_TABLES
    )
    with transaction.atomic(using=connection.alias):
        with connection.cursor() as cursor:
            guarded = _tables_with_triggers(cursor) if connection.vendor == "postgresql" else []
            for table in guarded:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            for table in tables:
                cursor.execute(f"DELETE FROM {quote(table)}")  # noqa: S608  (the schema's own names)
            if guarded:
                # The foreign keys' deferred checks first: a table with some pending can't be altered.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in guarded:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        ensure_roles()


def install() -> None:
    """TransactionTestCase (which pytest-django's transactional tests use) empties with
    `empty_tables` wherever it can; tests asking for serialized rollback, reset sequences or a subset
    of apps keep Django's flush."""
    original = TransactionTestCase._fixture_teardown
    if getattr(original, "fast", False):
        return

    def _fixture_teardown(self: TransactionTestCase) -> None:
        from django.db import connections

        aliases = list(self._databases_names(include_mirrors=False))
        plain = (
            self.available_apps is None
            and not self.serialized_rollback
            and not self.reset_sequences
        )
        if not plain or not all(can_empty_fast(connections[a]) for a in aliases):
            original(self)
            return
        for alias in aliases:
            empty_tables(connections[alias])

    _fixture_teardown.fast = True  # type: ignore[attr-defined]
    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]
