from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_timers_pauses_chat"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="bot_failures",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
