from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "is_staff", "is_muted", "date_joined", "last_login")
    list_filter = ("is_staff", "is_muted", "is_active")
    fieldsets = UserAdmin.fieldsets + (("Moderation", {"fields": ("is_muted",)}),)


# The coin ledger's read-only admin registers its models on import.
from .ledger import admin as _ledger_admin  # noqa: E402, F401
