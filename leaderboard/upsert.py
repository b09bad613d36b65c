"""The leaderboard's raw-SQL upsert: INSERT ... ON CONFLICT DO UPDATE in chunks, the sums added in the
database, for the tallies and standings that concurrent rounds add to."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, ForeignObjectRel, Model

UPSERT_PARAMETERS = 9000  # per INSERT: under SQLite's limit of variables (and PostgreSQL's)


def upsert(
    model: type[Model],
    keys: list[str],
    fields: list[str],
    rows: Sequence[tuple[Any, ...]],
    update: str,
    returning: list[str] | None = None,
) -> list[tuple[Any, ...]]:
    """INSERT `rows` (tuples: `keys` then `fields`) ... ON CONFLICT (keys) DO UPDATE SET `update`
    (column names in braces), in chunks; the RETURNING rows if `returning` names columns. Rows go in
    key order, so two transactions lock shared rows in the same order and never deadlock; the sums
    are added in the database, so nothing is lost between two transactions."""
    if not rows:
        return []
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    columns = [*keys, *fields]
    names = {c: quote(c) for c in columns} | {"table": quote(model._meta.db_table)}
    adapt = [_adapter(model._meta.get_field(c), connection) for c in columns]
    head = f"INSERT INTO {names['table']} ({', '.join(quote(c) for c in columns)}) VALUES "  # noqa: S608  quoted names and the callers' constant `update` only; values are parameters
    tail = f" ON CONFLICT ({', '.join(quote(k) for k in keys)}) DO UPDATE SET "
    tail += update.format(**names)
    if returning:
        tail += " RETURNING " + ", ".join(quote(c) for c in returning)
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    chunk_rows = UPSERT_PARAMETERS // len(columns)
    found = []
    with connection.cursor() as cursor:
        for first in range(0, len(rows), chunk_rows):
            chunk = rows[first : first + chunk_rows]
            params = [f(v) for row in chunk for f, v in zip(adapt, row, strict=True)]
            cursor.execute(head + ", ".join([one] * len(chunk)) + tail, params)
            if returning:
                found += cursor.fetchall()
    return found


def _adapter(
    field: Field[Any, Any] | ForeignObjectRel, connection: BaseDatabaseWrapper
) -> Callable[[Any], Any]:
    """How a value goes to the database: only dates and times need converting."""
    kind = field.get_internal_type()
    if kind == "DateTimeField":
        return connection.ops.adapt_datetimefield_value
    if kind == "DateField":
        return connection.ops.adapt_datefield_value
    return lambda value: value
