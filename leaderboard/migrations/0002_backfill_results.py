"""Results and standings for the rounds that finished before results were written."""

from django.db import migrations


def backfill(apps, schema_editor):
    from leaderboard.backfill import backfill as write_missing_results

    write_missing_results(
        game_model=apps.get_model("games", "Game"),
        round_model=apps.get_model("games", "Round"),
        action_model=apps.get_model("games", "Action"),
        tables=tuple(apps.get_model("leaderboard", n) for n in ("Result", "Standing", "PairDay")),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0001_results_and_standings"),
        ("games", "0004_round_public_id"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
