"""What a player page reads of a long history, kept as rounds are written: each account's results
numbered in the page's order (`Result.number`, a page is a range of them), how many it has
(`PlayerHistory`) and how many of each place it took per rule set (`PlaceTally`). The results already
written are numbered and tallied here, in three statements whatever their number."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, Max

from leaderboard.histories import renumber_results


def fill(apps, schema_editor):
    Result = apps.get_model("leaderboard", "Result")
    PlayerHistory = apps.get_model("leaderboard", "PlayerHistory")
    PlaceTally = apps.get_model("leaderboard", "PlaceTally")
    renumber_results(Result)
    mine = Result.objects.filter(user__isnull=False)
    histories = mine.values("user_id").annotate(rounds=Count("pk"), latest=Max("finished_at"))
    PlayerHistory.objects.bulk_create(
        [
            PlayerHistory(user_id=h["user_id"], rounds=h["rounds"], latest=h["latest"])
            for h in histories
        ],
        batch_size=2000,
    )
    places = mine.filter(counted=True).values("user_id", "ruleset", "place").annotate(n=Count("pk"))
    PlaceTally.objects.bulk_create(
        [
            PlaceTally(user_id=p["user_id"], ruleset=p["ruleset"], place=p["place"], rounds=p["n"])
            for p in places
        ],
        batch_size=2000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0011_ledger_entries_plural"),
        ("games", "0013_report_moves_to_accounts"),
        ("leaderboard", "0006_ratings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PlaceTally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "ruleset",
                    models.CharField(
                        choices=[
                            ("classic", "Classic"),
                            ("duel", "Duel"),
                            ("places", "Places"),
                            ("twodice", "Two dice"),
                        ],
                        max_length=10,
                    ),
                ),
                ("place", models.PositiveSmallIntegerField()),
                ("rounds", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name="PlayerHistory",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("rounds", models.PositiveIntegerField(default=0)),
                ("latest", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.AddField(
            model_name="result",
            name="number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="result",
            index=models.Index(fields=["user", "number"], name="result_player_numbered"),
        ),
        migrations.AddField(
            model_name="placetally",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="placetally",
            constraint=models.UniqueConstraint(
                fields=("user", "ruleset", "place"), name="place_tally_unique"
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
