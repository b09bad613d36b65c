"""Moderation's report model, taken over from games (whose 0013 forgot it) on the same table,
games_chatreport: a state change only, no row copied. Its content type moves with it, so the
permissions to view and resolve reports that groups and moderators hold (games.*_chatreport) are the
same rows afterwards, named accounts.*_report."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

OLD = ("games", "chatreport")
NEW = ("accounts", "report")
ACTIONS = ("add", "change", "delete", "view")


def _move_content_type(apps, schema_editor, old, new):
    """The model's content type row is renamed, and its default permissions with it. A database whose
    content types are not made yet (a new one: they are made after every migrate) has nothing to do."""
    content_types = apps.get_model("contenttypes", "ContentType")
    permissions = apps.get_model("auth", "Permission")
    db = schema_editor.connection.alias
    moved = content_types.objects.using(db).filter(app_label=old[0], model=old[1]).first()
    taken = content_types.objects.using(db).filter(app_label=new[0], model=new[1]).exists()
    if moved is None or taken:
        return
    moved.app_label, moved.model = new
    moved.save(using=db, update_fields=["app_label", "model"])
    for action in ACTIONS:
        permissions.objects.using(db).filter(
            content_type=moved, codename=f"{action}_{old[1]}"
        ).update(codename=f"{action}_{new[1]}")
    content_types.objects.clear_cache()  # it holds the row under its old name


def forwards(apps, schema_editor):
    _move_content_type(apps, schema_editor, OLD, NEW)


def backwards(apps, schema_editor):
    _move_content_type(apps, schema_editor, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_banned_accounts_index"),
        ("games", "0013_report_moves_to_accounts"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("reason", models.CharField(blank=True, max_length=200)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "outcome",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "Open"),
                                    ("dismissed", "Dismissed"),
                                    ("hidden", "Message hidden"),
                                    ("muted", "Player muted"),
                                    ("banned", "Player banned"),
                                ],
                                default="",
                                max_length=10,
                            ),
                        ),
                        ("resolved_at", models.DateTimeField(blank=True, null=True)),
                        ("note", models.CharField(blank=True, max_length=300)),
                        (
                            "game",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="reports",
                                to="games.game",
                            ),
                        ),
                        (
                            "message",
                            models.ForeignKey(
                                blank=True,
                                help_text="The reported message; empty for a report of a player.",
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports",
                                to="games.chatmessage",
                            ),
                        ),
                        (
                            "reported",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reports_against",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "reporter",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "resolved_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "report",
                        "db_table": "games_chatreport",
                        "ordering": ["created", "pk"],
                        "indexes": [
                            models.Index(
                                fields=["resolved_at", "created"],
                                name="games_chatr_resolve_ad81da_idx",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("message", "reporter"), name="chat_report_once"
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(
                                    ("message__isnull", True), ("resolved_at__isnull", True)
                                ),
                                fields=("reported", "reporter"),
                                name="player_report_open_once",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards),
    ]
