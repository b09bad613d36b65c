from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.timesince import timesince

from accounts.models import User
from accounts.moderation import desk_reads
from accounts.moderation.audit import AuditLog
from accounts.users.sanctions import when
from accounts.users.two_factor import is_verified
from accounts.web.desk_views import may_use_desk

register = template.Library()


@register.simple_tag
def desk_open_reports(user: User | AnonymousUser | None) -> int | None:
    """The nav badge's number of open reports, for those who work the desk (None for everyone else;
    0, the link without a number, for staff whose session no second factor verified: the desk tells
    them how to get one, and a password alone reads nothing of its queue)."""
    if user is None or not user.is_authenticated or not may_use_desk(user):
        return None
    return desk_reads.open_report_count() if is_verified(user) else 0


# An audit entry's action in a moderator's words.
ACTIONS = {
    "mute": "muted",
    "unmute": "mute lifted",
    "ban": "banned",
    "unban": "ban lifted",
    "rename": "renamed",
    "hide_message": "a message hidden",
    "resolve_report": "a report resolved",
    "adjust_coins": "coins adjusted",
    "void": "a round voided",
    "void_result": "a result taken out of the standings",
}


@register.filter
def audit_words(entry: AuditLog) -> str:
    """What an audit entry did, e.g. "muted until 02 Dec 2026 18:00 UTC" or "renamed from x to y"."""
    words = ACTIONS.get(entry.action, entry.action.replace("_", " "))
    after, before = entry.after or {}, entry.before or {}
    if entry.action in ("mute", "ban"):
        until = after.get("muted_until") if entry.action == "mute" else after.get("banned_until")
        moment = parse_datetime(until) if isinstance(until, str) else None
        words += f" until {when(moment)}" if moment else " until lifted by a moderator"
    elif entry.action == "rename":
        words += f" from {before.get('username', '?')} to {after.get('username', '?')}"
    elif entry.action == "adjust_coins" and isinstance(after.get("amount"), int):
        words += f" by {after['amount']:+,}"
    elif entry.action == "resolve_report" and after.get("outcome"):
        words += f" ({after['outcome']})"
    return words


@register.filter
def ago(moment: datetime | None) -> str:
    """ "5 minutes ago", or "just now" within the first minute (never "0 minutes ago")."""
    if moment is None:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment).split(',')[0]} ago"
