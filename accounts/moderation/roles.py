"""The moderators' groups and what each may do; created after every migrate (permissions don't exist
while migrations run), so a fresh database and an upgraded one get the same roles."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission

MODERATOR = "Moderator"
ADMIN = "Admin"

# Chat, reports, bans, mutes, renames; read-only games, players and the audit log.
MODERATOR_PERMISSIONS = [
    "accounts.view_user",
    "accounts.ban_user",
    "accounts.mute_user",
    "accounts.rename_user",
    "accounts.view_auditlog",
    "accounts.view_collusionflag",
    "games.view_game",
    "games.view_seat",
    "games.view_action",
    "games.view_round",
    "games.view_pause",
    "games.view_chatmessage",
    "games.hide_chatmessage",
    "games.view_tournament",
    "games.view_tournamententry",
    "games.view_tournamentmatch",
    "accounts.view_report",
    "accounts.change_report",  # resolving a report
]
# Also coins (adjustments, and reading the ledger) and voids.
ADMIN_PERMISSIONS = [
    *MODERATOR_PERMISSIONS,
    "accounts.adjust_coins",
    "accounts.view_ledgeraccount",
    "accounts.view_ledgertransaction",
    "accounts.view_ledgerentry",
    "games.void_game",
    "games.add_tournament",  # scheduling one
    "games.cancel_tournament",
]


def _permissions(names: list[str]) -> list[Permission]:
    found = []
    for name in names:
        app_label, codename = name.split(".")
        permission = Permission.objects.filter(
            content_type__app_label=app_label, codename=codename
        ).first()
        if permission is not None:  # an app not migrated yet: its permissions join next time
            found.append(permission)
    return found


def ensure_roles(**kwargs: Any) -> None:
    """post_migrate handler: the groups hold exactly their listed permissions."""
    for name, permissions in (
        (MODERATOR, MODERATOR_PERMISSIONS),
        (ADMIN, ADMIN_PERMISSIONS),
    ):
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.set(_permissions(permissions))
