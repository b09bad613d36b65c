"""On PostgreSQL the database itself refuses to change or delete an audit log row (a trigger), so not
even raw SQL or a shell session edits the moderators' record. (TRUNCATE, which only the test suite's
flush uses, is not a row change.) SQLite has no such guard: its flush deletes rows one by one."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION accounts_auditlog_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER accounts_auditlog_append_only
    BEFORE UPDATE OR DELETE ON accounts_auditlog
    FOR EACH ROW EXECUTE FUNCTION accounts_auditlog_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS accounts_auditlog_append_only ON accounts_auditlog;
DROP FUNCTION IF EXISTS accounts_auditlog_append_only();
"""


def guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def unguard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_account_sessions")]

    operations = [migrations.RunPython(guard, unguard)]
