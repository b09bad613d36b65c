from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_seat_player_key_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="how",
            field=models.CharField(blank=True, default="", max_length=10),
        ),
    ]
