"""PostgreSQL statistics on the columns that name a standings table together.

The planner otherwise multiplies the four columns' selectivities as if they were independent and
expects a few hundred rows where a table has thousands; it then sorts the whole table for every page
instead of reading the `standing_order` index in order. Other databases have nothing to do here.
"""

from django.db import migrations

CREATE = (
    "CREATE STATISTICS IF NOT EXISTS standing_table_stats (mcv, dependencies, ndistinct) "
    "ON ruleset, board, period, start FROM leaderboard_standing"
)
DROP = "DROP STATISTICS IF EXISTS standing_table_stats"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0003_standing_order_index")]

    operations = [migrations.RunPython(create, drop)]
