"""Every finished round gets a public replay id: profiles link replays by it,
never by the room id, which is the room's invitation."""

import secrets

from django.db import migrations, models

import games.models


def give_ids(apps, schema_editor):
    Round = apps.get_model("games", "Round")
    for kept in Round.objects.filter(public_id__isnull=True).only("pk"):
        kept.public_id = secrets.token_urlsafe(12)
        kept.save(update_fields=["public_id"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_game_bot_failures"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="public_id",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.RunPython(give_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="round",
            name="public_id",
            field=models.CharField(
                default=games.models.new_public_id, editable=False, max_length=24, unique=True
            ),
        ),
    ]
