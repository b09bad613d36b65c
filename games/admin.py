from django.contrib import admin

from .models import Action, ChatMessage, ChatReport, Game, Pause, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "index",
        "colours",
        "kind",
        "user",
        "name",
        "level",
        "bot_controlled",
        "resigned",
        "is_away",
        "timeouts_in_row",
    )
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


@admin.register(Pause)
class PauseAdmin(admin.ModelAdmin):
    list_display = ("game", "round", "seat", "started", "ends", "ended", "ended_by")
    search_fields = ("game__id",)


# Chat text is shown through the admin's auto-escaping (never mark_safe): it is what a player typed.
@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created", "game", "name", "user", "text")
    search_fields = ("game__id", "user__username", "text")
    readonly_fields = ("game", "seat", "user", "name", "text", "created")


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created", "message_text", "author", "reporter", "reason", "handled")
    list_filter = ("handled",)
    readonly_fields = ("message", "reporter", "reason", "created")

    @admin.display(description="message")
    def message_text(self, obj):
        return obj.message.text

    @admin.display(description="author")
    def author(self, obj):
        return obj.message.name
