"""The games' records in the admin are read-only: a form save would race the game's lock and version
and rewind a live game, so nobody, superusers included, adds, edits or deletes one in a form; changes
go through admin actions that call moderation's `do_*` functions."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest


class ReadOnly:
    """Viewable by whoever has the view permission; never added, changed or deleted in a form."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


class ReadOnlyTabularInline(ReadOnly, admin.TabularInline):
    pass
