"""The moderators' audit log: who did what, to whom, when, why, and what it was before and after.

Append-only: a row is written once by `record` and never changed or deleted (the model refuses, its
queryset refuses, and the admin shows it read-only to everyone, superusers included).
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models


class AppendOnly(Exception):
    pass


class AuditLogQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnly("The audit log is append-only.")

    def delete(self) -> NoReturn:
        raise AppendOnly("The audit log is append-only.")


class AuditLog(models.Model):
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=40, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The player the action was about.",
    )
    game_id = models.CharField(max_length=24, blank=True, db_index=True)
    reason = models.CharField(max_length=300, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = AuditLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = "audit log entry"
        verbose_name_plural = "audit log"

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnly("The audit log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnly("The audit log is append-only.")


def record(
    moderator: AbstractBaseUser,
    action: str,
    *,
    user: AbstractBaseUser | None = None,
    game_id: str = "",
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditLog:
    """Write one entry; call it inside the action's transaction, so the entry and the change commit
    together or not at all."""
    # By id: this module is loaded by accounts.models (the User model), so it names accounts by
    # AUTH_USER_MODEL and any account model does.
    return AuditLog.objects.create(
        moderator_id=moderator.pk,
        action=action,
        user_id=None if user is None else user.pk,
        game_id=game_id or "",
        reason=reason[:300],
        before=before or {},
        after=after or {},
    )
