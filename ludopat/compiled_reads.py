"""Reads made on nearly every request, with their SQL compiled once per process and database.

Django compiles a query's SQL anew on every call, and for the reads every action and render makes
(a game's forty columns, its seats' with their accounts') and the session every request loads,
compiling cost more than running the query and building the objects together (about 1 ms of a 2 ms
read on a 2-core machine). Here each is compiled once per process and database alias, with a
placeholder for its one key (a game's id, a session's key), then run with the key and turned into
objects exactly as Django does it (its converters, given the connection of the thread that reads,
and its select_related populators), so callers get what the ORM would have given them.

Once per alias, not per connection: under ASGI every request's sync code runs in a thread of its
own, and Django's connection objects are per thread, so a plan kept on the connection was compiled
again for every POST (about 2 ms of each action's).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

PLACEHOLDER = "\x00key"  # compiled in for the key, replaced by it on each run (a string column's)


_plans: dict[tuple[str, str], tuple] = {}  # (alias, read's name): its plan (`_compile`)
_compiling = threading.Lock()


class CompiledRead:
    """One query over one key (`make(key)`: its QuerySet), compiled once per process and alias."""

    def __init__(self, name: str, model: type[Model], make: Callable[[Any], QuerySet]) -> None:
        self.name, self.model, self.make = name, model, make

    def __call__(self, key: Any, *, write: bool = False) -> list[Any]:
        """The objects the QuerySet would give for `key`, read where the ORM would read them (the
        router's choice; `write`: the primary, as a locking read)."""
        alias = self.alias(write)
        connection = connections[alias]
        plan = self._plan(alias)
        with connection.cursor() as cursor:
            cursor.execute(plan[0], _params(plan, key, connection))
            rows = cursor.fetchall()
        return _objects(plan, rows, connection)

    def alias(self, write: bool) -> str:
        """Where the ORM would read (the router's choice; `write`: the primary, as a locking read)."""
        found = router.db_for_write(self.model) if write else router.db_for_read(self.model)
        return found or "default"

    def _plan(self, alias: str) -> tuple:
        key = (alias, self.name)
        plan = _plans.get(key)
        if plan is None:
            with _compiling:
                plan = _plans.get(key)
                if plan is None:
                    plan = _plans[key] = _compile(self.make(PLACEHOLDER).using(alias), alias)
        return plan


def read_both(first: CompiledRead, second: CompiledRead, key: Any) -> tuple[list, list]:
    """`first(key, write=True)` then `second(key, write=True)`, in one round trip on PostgreSQL.

    The two statements go as one query of the simple protocol: the server runs the second once the
    first is done (a lock it takes, waited for if need be), and under READ COMMITTED with a snapshot
    of its own, so it sees what was committed while the first waited, as a second round trip would.
    One statement joining the two would not: it reads every table but the locked row's as they were
    when it started. Two round trips where the backend is not PostgreSQL."""
    alias = first.alias(write=True)
    connection = connections[alias]
    if connection.vendor != "postgresql" or second.alias(write=True) != alias:
        return first(key, write=True), second(key, write=True)
    plans = first._plan(alias), second._plan(alias)
    sql = plans[0][0] + STATEMENTS_APART + plans[1][0]
    params = [*_params(plans[0], key, connection), *_params(plans[1], key, connection)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        cursor.nextset()
        more = cursor.fetchall()
    return _objects(plans[0], rows, connection), _objects(plans[1], more, connection)


# Between two statements sent as one query (`read_both`; the bench floor's statement count splits on it).
STATEMENTS_APART = ";\n"


def _params(plan: tuple, key: Any, connection: Any) -> list[Any]:
    """The plan's parameters with `key` in the key's place; a locking read refused outside a
    transaction, as Django's compiler refuses it (it would lock nothing)."""
    _sql, index, locking, _converters, _build, compiled_params = plan
    if locking and connection.get_autocommit():
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    params = list(compiled_params)
    params[index] = key
    return params


def _objects(plan: tuple, rows: list[Any], connection: Any) -> list[Any]:
    converters, build = plan[3], plan[4]
    if converters:
        rows = list(_converted(rows, converters, connection))
    return [build(row) for row in rows]


def _converted(rows: list[tuple], converters: list, connection: Any) -> Iterator[list]:
    """The rows through the columns' converters, as Django's `SQLCompiler.apply_converters` does, with
    the reading thread's connection (the compiler's is the thread's that compiled the plan)."""
    for row in map(list, rows):
        for pos, (convs, expression) in converters:
            value = row[pos]
            for converter in convs:
                value = converter(value, expression, connection)
            row[pos] = value
        yield row


def _compile(queryset: QuerySet, alias: str) -> tuple:
    """What a read needs of its query, nothing of the connection it was compiled on: the SQL, the
    key's place among the parameters, whether it locks, the converters, and how a row becomes objects."""
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    index = list(params).index(PLACEHOLDER)
    select, klass_info = compiler.select, compiler.klass_info
    converters = list(compiler.get_converters([column for column, _, _ in select]).items())
    model = klass_info["model"]
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    names = [field[0].target.attname for field in select[start:end]]
    populators = get_related_populators(klass_info, select, alias)  # type: ignore[call-arg]  # (stubs of a later Django)

    def build(row: tuple) -> Any:
        obj = model.from_db(alias, names, row[start:end])
        for populator in populators:
            populator.populate(row, obj)
        return obj

    locking = bool(compiler.query.select_for_update)
    return sql, index, locking, converters, build, tuple(params)
