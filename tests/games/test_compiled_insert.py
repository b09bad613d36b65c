"""A row of the action log is INSERTed with its SQL compiled once per database alias
(ludopat.compiled_writes.CompiledInsert, as every action records itself): it writes every column as
`create()` does (the JSON, the times, `created` stamped), the object comes back saved with the key the
database numbered; save signals go through `save()`; a related object not saved yet is refused as
`save()` refuses it; and a second insert compiles nothing."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models import signals
from django.db.models.sql.compiler import SQLInsertCompiler
from django.utils import timezone

from games.actions.core import NEW_ACTION
from games.models import Action, Seat
from tests.compiling import compilations
from tests.factories import accounts, room

pytestmark = pytest.mark.django_db(transaction=True)


DEADLINE = timezone.now()


def values(game, seq: int) -> dict:
    seat = game.seats.order_by("index").first()
    return {
        "game": game,
        "round": game.round,
        "seq": seq,
        "seat": seat,
        "kind": Action.Kind.ROLL,
        "data": {"dice": [6, 2], "seat": 0, "text": 'a <6> & "two"'},
        "text": 'Ann rolled a <6> & "two"',
        "auto": Action.Auto.TIMEOUT,
        "deadline": DEADLINE,
    }


def columns(action: Action) -> dict:
    return {
        f.attname: getattr(action, f.attname)
        for f in Action._meta.concrete_fields
        if f.attname not in ("id", "seq", "created")
    }


def test_the_compiled_insert_writes_every_column_as_create_does():
    game = room(accounts("ann", "ben"))
    before = timezone.now()
    with transaction.atomic():
        by_create = Action.objects.create(**values(game, 1000))
        compiled = NEW_ACTION(**values(game, 1001))
    assert not compiled._state.adding and compiled.pk is not None
    assert compiled.pk != by_create.pk
    stored = Action.objects.get(pk=compiled.pk)
    assert columns(stored) == columns(Action.objects.get(pk=by_create.pk))
    assert stored.seq == 1001 and stored.data["text"] == 'a <6> & "two"'
    assert before <= stored.created == compiled.created  # auto_now_add, as save() stamps it


def test_save_signals_go_through_save():
    game = room(accounts("ann", "ben"))
    heard = []

    def receiver(sender, instance, created, **kwargs):
        heard.append((instance.seq, created))

    signals.post_save.connect(receiver, sender=Action)
    try:
        NEW_ACTION(**values(game, 1000))
    finally:
        signals.post_save.disconnect(receiver, sender=Action)
    assert heard == [(1000, True)]


def test_a_related_object_not_saved_is_refused_as_save_refuses_it():
    game = room(accounts("ann", "ben"))
    unsaved = Seat(game=game, index=9)
    with pytest.raises(ValueError, match="unsaved related object"):
        NEW_ACTION(**{**values(game, 1000), "seat": unsaved})
    assert not Action.objects.filter(game=game, seq=1000).exists()


def test_a_second_insert_compiles_nothing(monkeypatch):
    game = room(accounts("ann", "ben"))
    NEW_ACTION(**values(game, 1000))
    second = values(game, 1001)  # (its seat read: compiled)
    compiled = compilations(monkeypatch, SQLInsertCompiler)
    NEW_ACTION(**second)
    assert compiled == []
    assert Action.objects.filter(game=game, seq=1001).count() == 1
