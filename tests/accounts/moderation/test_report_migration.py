"""The reports queue's model moved from games to moderation (games 0013, accounts 0010): a report made
before the move is in the queue after it, the same row of the same table (nothing is copied), and a
moderator who could resolve reports still can. Migrates the test database back to the leaves before
the move and forward again (run it on PostgreSQL too: DATABASE_URL)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.moderation.models import Report

BEFORE = [("games", "0012_round_how"), ("accounts", "0009_banned_accounts_index")]
AFTER = [("games", "0013_report_moves_to_accounts"), ("accounts", "0010_report_from_games")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_report_made_before_the_move_is_in_the_queue_after_it():
    old = _migrate(BEFORE)
    try:
        users = old.get_model("accounts", "User").objects
        author = users.create(username="author", password="!")
        reporter = users.create(username="reporter", password="!")
        moderator = users.create(username="moderator", password="!", is_staff=True)
        game = old.get_model("games", "Game").objects.create(
            id="movedgame",
            mode="friends",
            ruleset="classic",
            server_seed="s",
            server_seed_sha256="h",
        )
        message = old.get_model("games", "ChatMessage").objects.create(
            game=game, user=author, name="author", text="rude words"
        )
        reports = old.get_model("games", "ChatReport").objects
        of_message = reports.create(
            message=message, reported=author, game=game, reporter=reporter, reason="rude"
        )
        of_player = reports.create(reported=author, reporter=reporter, reason="cheats")
        # A moderator given the right to resolve reports by hand, as it was named then.
        resolve = old.get_model("auth", "Permission").objects.get(
            content_type__app_label="games", codename="change_chatreport"
        )
        moderator.user_permissions.add(resolve)

        _migrate(AFTER)

        moved = Report.objects.get(pk=of_message.pk)
        assert (moved.message_id, moved.reported_id, moved.game_id, moved.reason) == (
            message.pk,
            author.pk,
            "movedgame",
            "rude",
        )
        assert moved.about == Report.About.MESSAGE and moved.is_open
        about_player = Report.objects.get(pk=of_player.pk)
        assert about_player.about == Report.About.PLAYER
        assert about_player.reported_id == author.pk and about_player.message_id is None
        assert Report._meta.db_table == "games_chatreport"
        ContentType.objects.clear_cache()
        assert get_user_model().objects.get(pk=moderator.pk).has_perm("accounts.change_report")
        assert not ContentType.objects.filter(app_label="games", model="chatreport").exists()
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        ContentType.objects.clear_cache()
