"""A row's whole UPDATE, and a new row's INSERT, with their SQL compiled once per process and database
(the writes beside ludopat.compiled_reads).

`Model.save()` of a row that exists builds an UpdateQuery and compiles it on every call: for a
game's forty columns that cost about as much again as the action's other writes together. Here the
statement is compiled once per database alias from the model's own fields (each column a `%s`, as
Django's compiler writes it for them) and run with the values Django would send: each field's
`pre_save` (so `auto_now` stamps the time) and `get_db_prep_save`. The model's save signals, a
value that is an expression, a field with a placeholder of its own, or an object with deferred
fields go through `save()` itself. An INSERT (`CompiledInsert`, a row of the action log per action)
is the same: every column but an automatic key, which the database returns.
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, connections, router
from django.db.models import Model, signals


class CompiledSave:
    """`obj.save()` for rows of `model` that exist, every column but the key written."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self.simple = not any(hasattr(f, "get_placeholder") for f in self.fields)
        self._compiled: dict[str, str] = {}  # alias: the statement

    def __call__(self, obj: Model) -> None:
        model = self.model
        if (
            not self.simple
            or obj._state.adding
            or obj.get_deferred_fields()  # save() writes only the loaded ones
            or signals.pre_save.has_listeners(model)
            or signals.post_save.has_listeners(model)
        ):
            obj.save()
            return
        alias = router.db_for_write(model, instance=obj) or "default"
        connection = connections[alias]
        values = [f.pre_save(obj, False) for f in self.fields]
        if any(hasattr(v, "resolve_expression") for v in values):
            obj.save()
            return
        params: list[Any] = [
            f.get_db_prep_save(v, connection=connection)
            for f, v in zip(self.fields, values, strict=True)
        ]
        params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))
        with connection.cursor() as cursor:
            cursor.execute(self._sql(alias, connection), params)
            if cursor.rowcount != 1:  # what save() would do: the row must exist
                raise DatabaseError(f"{model.__name__} {obj.pk} was not updated.")
        obj._state.db = alias

    def _sql(self, alias: str, connection: Any) -> str:
        # Per alias, as compiled_reads keeps its plans: a connection object is a thread's, and under
        # ASGI every request has a thread of its own.
        sql = self._compiled.get(alias)
        if sql is None:
            quote = connection.ops.quote_name
            sets = ", ".join(f"{quote(f.column)} = %s" for f in self.fields)
            table, pk = quote(self.model._meta.db_table), quote(self.model._meta.pk.column)
            # Names from the model's own meta, quoted by the backend; every value a parameter.
            sql = self._compiled[alias] = f"UPDATE {table} SET {sets} WHERE {pk} = %s"  # noqa: S608
        return sql


class CompiledInsert:
    """`model.objects.create(**values)` for a model whose key the database numbers (an AutoField):
    the object, saved, its key set."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        pk = model._meta.pk
        if pk is None or not pk.db_returning:
            raise TypeError(f"{model.__name__}'s key is not numbered by the database.")
        self.fields = [
            f for f in model._meta.concrete_fields if f is not pk and not getattr(f, "generated", 0)
        ]
        self.simple = not any(hasattr(f, "get_placeholder") for f in self.fields)
        self._compiled: dict[str, str] = {}  # alias: the statement

    def __call__(self, **values: Any) -> Any:
        model = self.model
        obj = model(**values)
        if (
            not self.simple
            or signals.pre_save.has_listeners(model)
            or signals.post_save.has_listeners(model)
        ):
            obj.save(force_insert=True)
            return obj
        alias = router.db_for_write(model, instance=obj) or "default"
        connection = connections[alias]
        obj._prepare_related_fields_for_save(operation_name="save")  # type: ignore[attr-defined]  # (not in the stubs)
        row = [f.pre_save(obj, True) for f in self.fields]
        if not connection.features.can_return_columns_from_insert or any(
            hasattr(v, "resolve_expression") for v in row
        ):
            obj.save(force_insert=True)
            return obj
        params = [
            f.get_db_prep_save(v, connection=connection)
            for f, v in zip(self.fields, row, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(self._sql(alias, connection), params)
            (key,) = cursor.fetchone()
        obj.pk = model._meta.pk.to_python(key)
        obj._state.adding, obj._state.db = False, alias
        return obj

    def _sql(self, alias: str, connection: Any) -> str:
        sql = self._compiled.get(alias)
        if sql is None:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in self.fields)
            marks = ", ".join(["%s"] * len(self.fields))
            table, pk = quote(self.model._meta.db_table), quote(self.model._meta.pk.column)
            # Names from the model's own meta, quoted by the backend; every value a parameter.
            sql = f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING {pk}"  # noqa: S608
            self._compiled[alias] = sql
        return sql
