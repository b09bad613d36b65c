"""tests/fast_flush.py: what a transactional test leaves behind is gone for the next test, as after
Django's flush, while content types and permissions keep their ids and the append-only triggers stay on."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import DatabaseError, connection, transaction

from accounts.moderation import audit
from accounts.moderation.roles import ADMIN, MODERATOR
from tests import fast_flush
from tests.factories import accounts, finished_staked_game

pytestmark = pytest.mark.django_db(transaction=True)


def _rows_by_table() -> dict[str, int]:
    return {
        model._meta.db_table: model._base_manager.count()
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    }


def test_every_table_a_test_wrote_is_empty_and_the_schema_rows_keep_their_ids():
    winner, loser = accounts("winner", "loser")
    finished_staked_game(winner, loser)
    audit.record(winner, "mute", user=loser, reason="a row of the append-only audit log")
    moderators = Group.objects.get(name=MODERATOR)
    moderators.permissions.clear()  # a test that changed a role: the next test gets it back
    written = {table for table, count in _rows_by_table().items() if count}
    assert {"accounts_auditlog", "games_game", "accounts_user"} <= written
    content_types = dict(ContentType.objects.values_list("pk", "model"))
    permissions = dict(Permission.objects.values_list("pk", "codename"))

    fast_flush.empty_tables(connection)

    left = {t: n for t, n in _rows_by_table().items() if n and t not in fast_flush.KEPT_TABLES}
    assert set(left) == {"auth_group", "auth_group_permissions"}  # the two roles, made again
    assert left["auth_group"] == 2
    assert dict(ContentType.objects.values_list("pk", "model")) == content_types
    assert dict(Permission.objects.values_list("pk", "codename")) == permissions
    for name in (MODERATOR, ADMIN):
        assert Group.objects.get(name=name).permissions.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's")
def test_the_audit_log_still_refuses_a_delete_after_emptying():
    fast_flush.empty_tables(connection)
    (moderator,) = accounts("moderator")
    audit.record(moderator, "mute", reason="written after the emptying")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM accounts_auditlog")
