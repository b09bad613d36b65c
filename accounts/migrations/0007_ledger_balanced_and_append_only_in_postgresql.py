"""On PostgreSQL the database itself defends the ledger, as it does the audit log, so that no code
path, raw SQL or shell session can unbalance or rewrite it:

- a deferred constraint trigger refuses, at commit, a transaction whose entries don't sum to zero or
  that has fewer than two (checked when a transaction or an entry is inserted, so an entry added later
  to a balanced transaction is caught too);
- row triggers refuse any UPDATE or DELETE of an entry or a transaction.

Wallets' and escrows' cached `balance` column (accounts_ledgeraccount) stays updatable: it moves with
every posting. TRUNCATE, which only the test suite's flush uses, is not a row change. SQLite has no such
guard; accounts.ledger.models refuses changes through the ORM there, and check_ledger finds the rest.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION accounts_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % rows are never changed or deleted', TG_TABLE_NAME
        USING ERRCODE = 'check_violation';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER accounts_ledgerentry_append_only
    BEFORE UPDATE OR DELETE ON accounts_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_append_only();
CREATE TRIGGER accounts_ledgertransaction_append_only
    BEFORE UPDATE OR DELETE ON accounts_ledgertransaction
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_append_only();

CREATE OR REPLACE FUNCTION accounts_ledger_balanced() RETURNS trigger AS $$
DECLARE
    txn bigint;
    total numeric;
    legs integer;
BEGIN
    IF TG_TABLE_NAME = 'accounts_ledgerentry' THEN
        txn := NEW.transaction_id;
    ELSE
        txn := NEW.id;
    END IF;
    SELECT coalesce(sum(amount), 0), count(*) INTO total, legs
        FROM accounts_ledgerentry WHERE transaction_id = txn;
    IF total <> 0 OR legs < 2 THEN
        RAISE EXCEPTION 'ledger transaction % must have entries that sum to zero (% over % entries)',
            txn, total, legs
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER accounts_ledgertransaction_balanced
    AFTER INSERT ON accounts_ledgertransaction
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_balanced();
CREATE CONSTRAINT TRIGGER accounts_ledgerentry_balanced
    AFTER INSERT ON accounts_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_balanced();
"""
DROP = """
DROP TRIGGER IF EXISTS accounts_ledgerentry_balanced ON accounts_ledgerentry;
DROP TRIGGER IF EXISTS accounts_ledgertransaction_balanced ON accounts_ledgertransaction;
DROP FUNCTION IF EXISTS accounts_ledger_balanced();
DROP TRIGGER IF EXISTS accounts_ledgertransaction_append_only ON accounts_ledgertransaction;
DROP TRIGGER IF EXISTS accounts_ledgerentry_append_only ON accounts_ledgerentry;
DROP FUNCTION IF EXISTS accounts_ledger_append_only();
"""


def guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)  # "%" is PL/pgSQL's, not a placeholder


def unguard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_browser_accounts")]

    operations = [migrations.RunPython(guard, unguard)]
