"""The ledger in Django's admin: read-only for everyone (superusers too). Coins move only through the
ledger's services (posting.post), which keep every transaction balanced and every wallet non-negative."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from ..ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction, TopUpClaim


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class EntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ("account", "amount", "balance_after")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "user", "game", "balance", "created")
    list_filter = ("kind",)
    search_fields = ("user__username", "game__id")
    list_select_related = ("user",)


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "kind", "reason", "game", "created")
    list_filter = ("kind",)
    search_fields = ("reason", "game__id", "entries__account__user__username")
    date_hierarchy = "created"
    inlines = [EntryInline]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("pk", "transaction", "account", "amount", "balance_after")
    search_fields = ("account__user__username", "transaction__game__id")
    list_select_related = ("transaction", "account")


@admin.register(TopUpClaim)
class TopUpClaimAdmin(ReadOnlyAdmin):
    list_display = ("user", "day", "transaction")
