from django.contrib import admin

from .models import Action, Game, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "colours", "kind", "user", "name", "level", "bot_controlled", "resigned")
    readonly_fields = ("index", "colours")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "mode", "ruleset", "status", "round", "version", "owner", "updated")
    list_filter = ("mode", "ruleset", "status")
    search_fields = ("id", "owner__username", "seats__user__username")
    readonly_fields = ("id", "version", "state", "server_seed", "server_seed_sha256", "nonce")
    inlines = [SeatInline]


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("game", "round", "seq", "kind", "text", "created")
    list_filter = ("kind",)
    search_fields = ("game__id",)

    def has_change_permission(self, request, obj=None):  # the log is append-only
        return False


admin.site.register(Round)
