"""Writing many rows' new values in one statement: UPDATE ... FROM (VALUES ...), in chunks.

Django's `bulk_update` writes a CASE WHEN per field with one branch per row, which the database walks
for every row: quadratic, minutes for a replay of 100,000 rounds. A join on a VALUES list is linear.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model

PARAMETERS = 9000  # per statement: under SQLite's limit of variables (and PostgreSQL's)
CASTS = {  # PostgreSQL: a VALUES column of nulls only is text; say each column's type
    "BigAutoField": "bigint",
    "AutoField": "integer",
    "FloatField": "double precision",
    "IntegerField": "integer",
    "PositiveIntegerField": "integer",
    "DateTimeField": "timestamp with time zone",
}


def update_rows(model: type[Model], fields: list[str], rows: Sequence[tuple[Any, ...]]) -> int:
    """Set `fields` of the rows of `model` whose primary key is each tuple's first value to the
    tuple's other values. Returns the rows written."""
    if not rows:
        return 0
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    meta = model._meta
    named = [meta.get_field(f) for f in fields]
    pk = meta.get_field(meta.pk.name if meta.pk else "id")
    columns = [getattr(f, "column", f.name) for f in (pk, *named)]
    kinds = [f.get_internal_type() for f in (pk, *named)]
    postgres = connection.vendor == "postgresql"
    picked = ", ".join(
        (f"CAST(column{n} AS {CASTS[kind]})" if postgres else f"column{n}") + f" AS {quote(c)}"
        for n, (c, kind) in enumerate(zip(columns, kinds, strict=True), start=1)
    )
    table = quote(meta.db_table)
    sets = ", ".join(f"{quote(c)} = v.{quote(c)}" for c in columns[1:])
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    adapt = [
        connection.ops.adapt_datetimefield_value if kind == "DateTimeField" else None
        for kind in kinds
    ]
    per_chunk = PARAMETERS // len(columns)
    written = 0
    with connection.cursor() as cursor:
        for first in range(0, len(rows), per_chunk):
            chunk = rows[first : first + per_chunk]
            values = ", ".join([one] * len(chunk))
            sql = (
                f"UPDATE {table} SET {sets} FROM (SELECT {picked} FROM (VALUES {values}) AS raw) AS v "  # noqa: S608  quoted names only; values are parameters
                f"WHERE {table}.{quote(columns[0])} = v.{quote(columns[0])}"
            )
            params = [
                f(value) if f else value
                for row in chunk
                for f, value in zip(adapt, row, strict=True)
            ]
            cursor.execute(sql, params)
            written += cursor.rowcount
    return written
