"""The game row's UPDATE compiled once per database alias (ludopat.compiled_writes, as save_game writes a
turn) writes every column as `save()` does: the state, the JSON columns, the times (`updated` stamped
anew), the foreign keys; a row that is gone is an error, not a silent no-op; save signals and deferred
fields go through `save()` itself; and a second save compiles nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError, transaction
from django.db.models import signals
from django.db.models.sql.compiler import SQLUpdateCompiler
from django.utils import timezone

from games.actions.core import SAVE_GAME, lock_game
from games.models import Game
from tests.compiling import compilations
from tests.factories import accounts, room

pytestmark = pytest.mark.django_db(transaction=True)


def columns(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def changed(game: Game) -> None:
    game.version += 3
    game.nonce += 2
    game.message = 'Ann rolled a <6> & "moved"'
    game.new_round_votes = [1]
    game.state = {**(game.state or {}), "dice": [6, 2]}
    game.deadline = timezone.now() + timedelta(seconds=30)
    game.bot_failures = 2


def test_the_compiled_save_writes_every_column_as_save_does():
    users = accounts("ann", "ben")
    game = room(users)
    with transaction.atomic():
        by_save = lock_game(game.pk)
        changed(by_save)
        by_save.save()
    expected = columns(Game.objects.get(pk=game.pk))
    Game.objects.filter(pk=game.pk).update(version=0, message="", new_round_votes=[], nonce=0)
    with transaction.atomic():
        compiled = lock_game(game.pk)
        before = compiled.updated
        changed(compiled)
        compiled.version, compiled.nonce = by_save.version, by_save.nonce
        SAVE_GAME(compiled)
    got = columns(Game.objects.get(pk=game.pk))
    assert got["updated"] > before  # auto_now, as save() stamps it
    assert got["updated"] == compiled.updated
    for name in expected:
        if name not in ("updated", "deadline"):
            assert got[name] == expected[name], name
    assert abs(got["deadline"] - expected["deadline"]) < timedelta(seconds=5)
    assert got["message"] == 'Ann rolled a <6> & "moved"'
    assert got["new_round_votes"] == [1]


def test_a_row_that_is_gone_is_an_error():
    (ann,) = accounts("ann")
    game = room([ann, *accounts("ben")])
    stale = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        SAVE_GAME(stale)
    assert not Game.objects.filter(pk=game.pk).exists()


def test_save_signals_and_deferred_fields_go_through_save():
    game = room(accounts("ann", "ben"))
    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.pk)

    signals.pre_save.connect(receiver, sender=Game)
    try:
        loaded = Game.objects.get(pk=game.pk)
        loaded.message = "heard"
        SAVE_GAME(loaded)
    finally:
        signals.pre_save.disconnect(receiver, sender=Game)
    assert heard == [game.pk]
    assert Game.objects.get(pk=game.pk).message == "heard"
    partial = Game.objects.only("pk", "message").get(pk=game.pk)
    partial.message = "only this"
    SAVE_GAME(partial)  # save() writes the loaded columns only, as it would have
    row = Game.objects.get(pk=game.pk)
    assert row.message == "only this"
    assert row.version == game.version


def test_a_second_save_compiles_nothing(monkeypatch):
    game = room(accounts("ann", "ben"))
    SAVE_GAME(Game.objects.get(pk=game.pk))
    compiled = compilations(monkeypatch, SQLUpdateCompiler)
    loaded = Game.objects.get(pk=game.pk)  # (a read: compiled, and counted)
    compiled.clear()
    loaded.message = "again"
    SAVE_GAME(loaded)
    assert compiled == []
    assert Game.objects.get(pk=game.pk).message == "again"
