from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_staked_rematch_offers"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="how",
            field=models.CharField(blank=True, default="", max_length=10),
        ),
    ]
