"""Rounds kept before `Round.how` existed get it from their results (every seat's row says how the round
ended); a round without results (pass & play, or never finished) stays without."""

from django.db import migrations
from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce


def fill(apps, schema_editor):
    Round = apps.get_model("games", "Round")
    Result = apps.get_model("leaderboard", "Result")
    how = Result.objects.filter(round=OuterRef("pk")).values("how")[:1]
    Round.objects.filter(how="").update(how=Coalesce(Subquery(how), Value("")))


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0004_standing_table_statistics"),
        ("games", "0012_round_how"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
