"""The leaderboard's search (a part of a name, anywhere in it: `username__icontains`) reads a trigram
index on PostgreSQL instead of scanning every account (docs/performance.md). Other databases scan, as
before. pg_trgm is a trusted extension: the database's owner may create it. (Not Django's
`TrigramExtension` operation: unapplied on SQLite it asks for `pg_extension` and fails, and the
migration tests unapply it. Unapplying drops the index and leaves the extension, which may serve
others.)"""

from django.db import migrations

INDEX = "user_username_trgm"


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        # The expression icontains compares: UPPER("username"::text) LIKE UPPER('%part%').
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON accounts_user "
            "USING gin (UPPER(username::text) gin_trgm_ops)"
        )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0013_ledger_pools")]

    operations = [migrations.RunPython(create_index, drop_index)]
