"""The report model moves to moderation, as accounts.Report (accounts/moderation/models.py): games
forgets it here, in its state only. Its table, games_chatreport, stays as it is, with every row, and
accounts' 0010_report_from_games takes the model over on the same table (nothing is copied)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_round_how"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="ChatReport")],
            database_operations=[],
        ),
    ]
