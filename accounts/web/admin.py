"""Players in the admin: searched by name, e-mail or a game they played; banned, muted and renamed only
through actions (each asks for a reason and is audited, and calls accounts.moderation); never deleted.
The audit log is read-only for everyone, superusers included. The reports queue is admin_reports.py."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from ..models import CollusionFlag, User
from ..moderation import bans, coins, collusion, mutes, renames
from ..moderation.audit import AuditLog
from .admin_actions import permission_to, reason_action
from .admin_forms import BanForm, CoinsForm, MuteForm, ReasonForm, RenameForm, ends_after

admin.site.site_header = "Ludopat moderation"
admin.site.site_title = "Ludopat moderation"
admin.site.index_title = "Players, games, reports and the audit log"

# Set through the moderation actions only, so each change has a reason and an audit entry.
MODERATION_FIELDS = (
    "is_active",
    "muted_until",
    "mute_reason",
    "banned_at",
    "banned_until",
    "ban_reason",
)


class BannedFilter(admin.SimpleListFilter):
    title = "ban"
    parameter_name = "banned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Banned"), ("no", "Not banned")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(banned_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(banned_at__isnull=True)
        return queryset


class MutedFilter(admin.SimpleListFilter):
    title = "mute"
    parameter_name = "muted"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Muted now")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(muted_until__gt=timezone.now())
        return queryset


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = (
        "username",
        "email",
        "is_active",
        "banned_until_display",
        "muted_until",
        "is_staff",
        "date_joined",
        "last_login",
    )
    list_filter = (BannedFilter, MutedFilter, "is_staff", "is_active", "groups")
    search_fields = ("username", "email")
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Moderation", {"fields": MODERATION_FIELDS[1:]}))
    actions = ["ban", "unban", "mute", "unmute", "rename", "adjust_coins"]

    def get_readonly_fields(self, request: HttpRequest, obj: User | None = None) -> list[str]:
        readonly = list(super().get_readonly_fields(request, obj)) + list(MODERATION_FIELDS)
        readonly.append("coins")
        if obj is not None:
            readonly.append("username")  # renamed through the audited action
        return readonly

    def has_delete_permission(self, request: HttpRequest, obj: User | None = None) -> bool:
        return False  # deactivated (banned), never deleted: their rounds stay in others' histories

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[User], search_term: str
    ) -> tuple[QuerySet[User], bool]:
        """A room id finds the players seated in it (a moderator looking into a game's players)."""
        from games.models import Seat

        results, duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if term:
            seated = Seat.objects.filter(game_id=term, user__isnull=False).values("user_id")
            results = results | queryset.filter(pk__in=seated)
        return results, duplicates

    @admin.display(description="banned until")
    def banned_until_display(self, obj: User) -> object:
        if not obj.is_banned:
            return ""
        return obj.banned_until or "lifted by hand"

    def get_fieldsets(self, request: HttpRequest, obj: User | None = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and request.user.has_perm("accounts.view_ledgertransaction"):
            fieldsets = (*fieldsets, ("Coins", {"fields": ("coins",)}))
        return fieldsets

    @admin.display(description="coins")
    def coins(self, obj: User) -> str:
        """The balance and a link to the account's ledger transactions."""
        from ..ledger.history import balance_of

        url = reverse("admin:accounts_ledgertransaction_changelist")
        return format_html(
            '{} (<a href="{}?q={}">ledger</a>)', f"{balance_of(obj.pk):,}", url, obj.username
        )

    # Each action asks for a reason (and what it needs) and calls moderation's audited service.
    has_ban_permission = permission_to("accounts.ban_user")
    has_mute_permission = permission_to("accounts.mute_user")
    has_rename_permission = permission_to("accounts.rename_user")
    has_adjust_coins_permission = permission_to("accounts.adjust_coins")

    adjust_coins = reason_action(
        "adjust_coins",
        "Adjust the selected players' coins",
        permission="adjust_coins",
        title="Adjust coins",
        form_class=CoinsForm,
        apply=lambda moderator, user, data: coins.do_adjust_coins(
            moderator, user, amount=data["amount"], reason=data["reason"]
        ),
        done="coins adjusted.",
    )
    ban = reason_action(
        "ban",
        "Ban the selected players",
        permission="ban",
        title="Ban",
        form_class=BanForm,
        apply=lambda moderator, user, data: bans.do_ban(
            moderator,
            user,
            reason=data["reason"],
            until=ends_after(data["duration"]) if data["duration"] else None,
        ),
        done="banned.",
    )
    unban = reason_action(
        "unban",
        "Lift the ban of the selected players",
        permission="ban",
        title="Lift the ban",
        form_class=ReasonForm,
        apply=lambda moderator, user, data: bans.do_unban(moderator, user, reason=data["reason"]),
        done="ban lifted.",
    )
    mute = reason_action(
        "mute",
        "Mute the selected players' chat",
        permission="mute",
        title="Mute",
        form_class=MuteForm,
        apply=lambda moderator, user, data: mutes.do_mute(
            moderator, user, until=ends_after(data["duration"]), reason=data["reason"]
        ),
        done="muted.",
    )
    unmute = reason_action(
        "unmute",
        "Unmute the selected players",
        permission="mute",
        title="Unmute",
        form_class=ReasonForm,
        apply=lambda moderator, user, data: mutes.do_unmute(moderator, user, reason=data["reason"]),
        done="unmuted.",
    )
    rename = reason_action(
        "rename",
        "Rename the selected player",
        permission="rename",
        title="Rename",
        form_class=RenameForm,
        apply=lambda moderator, user, data: renames.do_rename(
            moderator, user, new_username=data["username"], reason=data["reason"]
        ),
        done="renamed.",
        first_only=True,
    )


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ("created", "moderator", "action", "user", "game_id", "reason")
    list_filter = (
        "action",
        ("moderator", admin.RelatedOnlyFieldListFilter),
        ("user", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = ("moderator__username", "user__username", "game_id", "reason")
    date_hierarchy = "created"

    # Append-only for everyone, superusers included: entries are written by the moderation services.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# The coin ledger's read-only admin and the reports queue register their models on import.
from . import admin_reports as _reports_admin  # noqa: E402, F401
from . import ledger_admin as _ledger_admin  # noqa: E402, F401


@admin.register(CollusionFlag)
class CollusionFlagAdmin(admin.ModelAdmin):
    """Not a table: the list of flagged pairs, computed from results and log-in addresses."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Collusion flags",
            "opts": self.model._meta,
            "flags": collusion.flags(),
            "run_limit": collusion.RUN_LIMIT,
        }
        return TemplateResponse(request, "admin/collusion_flags.html", context)
