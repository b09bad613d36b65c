"""The audit log is append-only: no code path and no admin page changes or deletes an entry, not even
a superuser's."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.moderation import audit
from accounts.moderation.audit import AppendOnly, AuditLog

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(moderator, player):
    return audit.record(moderator, "mute", user=player, reason="Spam", after={"muted": True})


def test_entries_cannot_be_changed_or_deleted_in_code(entry):
    entry.reason = "Nothing happened"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        AuditLog.objects.filter(pk=entry.pk).update(reason="Nothing happened")
    with pytest.raises(AppendOnly):
        AuditLog.objects.all().delete()
    assert AuditLog.objects.get(pk=entry.pk).reason == "Spam"


def test_nobody_edits_or_deletes_an_entry_in_the_admin(entry, moderator, django_user_model):
    root = django_user_model.objects.create_superuser("root", password="pw-pw-pw-pw-pw")
    for user in (root, moderator):
        client = logged_in(user)
        listing = client.get(reverse("admin:accounts_auditlog_changelist"))
        assert listing.status_code == 200 and b"Spam" in listing.content
        page = client.get(reverse("admin:accounts_auditlog_change", args=[entry.pk]))
        assert page.status_code == 200 and b'name="_save"' not in page.content
        assert (
            client.post(
                reverse("admin:accounts_auditlog_change", args=[entry.pk]),
                {"action": "ban", "reason": "Nothing happened"},
            ).status_code
            == 403
        )
        assert client.get(reverse("admin:accounts_auditlog_add")).status_code == 403
        assert (
            client.post(
                reverse("admin:accounts_auditlog_delete", args=[entry.pk]), {"post": "yes"}
            ).status_code
            == 403
        )
        bulk = client.post(
            reverse("admin:accounts_auditlog_changelist"),
            {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"},
        )
        assert bulk.status_code in (200, 302)
    assert AuditLog.objects.get(pk=entry.pk).reason == "Spam"


def test_the_log_filters_by_moderator_and_player(entry, moderator, player, site_admin):
    audit.record(site_admin, "ban", user=site_admin, reason="Other")
    client = logged_in(moderator)
    url = reverse("admin:accounts_auditlog_changelist")
    mine = client.get(url, {"moderator__id__exact": moderator.pk}).content
    assert b"Spam" in mine and b"Other" not in mine
    theirs = client.get(url, {"user__id__exact": player.pk}).content
    assert b"Spam" in theirs and b"Other" not in theirs


def test_on_postgresql_the_database_refuses_to_change_an_entry(entry):
    from django.db import DatabaseError, connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("the database-level guard is PostgreSQL's (CI runs it)")
    for sql in ("UPDATE accounts_auditlog SET reason = 'x'", "DELETE FROM accounts_auditlog"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql)
    assert AuditLog.objects.get(pk=entry.pk).reason == "Spam"
