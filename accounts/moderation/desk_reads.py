"""What the moderator's desk reads (accounts/web/desk_views.py): the queue of open reports, one report with
its context (the conversation around a reported message, or the game a player was reported from), and
the reported player's history. Reads only: every change goes through the moderation services.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from accounts.moderation.models import Report
from games.models import ChatMessage, Game, Seat

from ..models import User
from .audit import AuditLog

# Messages shown around a reported one (as the admin shows them).
CONTEXT_BEFORE, CONTEXT_AFTER = 8, 4
# A player report's game: its last chat lines.
GAME_CHAT_LINES = 12
# Enough of a player's past to judge by; the admin's audit log has the rest.
HISTORY_ROWS = 20
COIN_MOVEMENTS = 20
# Mutes and bans are read from the audit log: these actions are the player's sanctions.
SANCTIONS = ("mute", "unmute", "ban", "unban")


def open_reports() -> QuerySet[Report]:
    return Report.objects.filter(resolved_at__isnull=True)


def open_report_count() -> int:
    """The nav badge's number (an indexed count: resolved_at leads the reports' index)."""
    return open_reports().count()


def target_of(report: Report) -> User | None:
    """The player a report is about: the reported player, or the reported message's author."""
    if report.reported_id:
        return report.reported
    return report.message.user if report.message is not None else None


def game_id_of(report: Report) -> str:
    if report.game_id:
        return report.game_id
    return (report.message.game_id or "") if report.message is not None else ""


@dataclass(frozen=True)
class QueueEntry:
    report: Report
    target: User | None
    open_on_target: int  # open reports about the same player, this one included


def queue() -> list[QueueEntry]:
    """Open reports, the players with the most open reports first, then oldest first (a player's
    reports together). The open queue is a working set (reports close as they are read), so it is
    ordered here rather than in SQL, where a report's player is either of two columns."""
    reports = list(
        open_reports().select_related("message", "message__user", "reported", "reporter", "game")
    )
    targets = [target_of(r) for r in reports]
    counts = Counter(t.pk for t in targets if t is not None)
    entries = [
        QueueEntry(r, t, counts[t.pk] if t is not None else 1)
        for r, t in zip(reports, targets, strict=True)
    ]
    # A player's reports stay together, the group placed by its oldest report.
    oldest: dict[int, Any] = {}
    for entry in entries:
        if entry.target is not None:
            pk, created = entry.target.pk, entry.report.created
            oldest[pk] = min(oldest.get(pk, created), created)

    def place(entry: QueueEntry) -> tuple:
        report, target = entry.report, entry.target
        since = oldest[target.pk] if target is not None else report.created
        return (-entry.open_on_target, since, target.pk if target else 0, report.created, report.pk)

    return sorted(entries, key=place)


def recently_resolved(limit: int = 10) -> list[Report]:
    resolved = Report.objects.filter(resolved_at__isnull=False)
    related = resolved.select_related("message", "message__user", "reported", "resolved_by")
    return list(related.order_by("-resolved_at", "-pk")[:limit])


def report_for_desk(report_id: int) -> Report | None:
    related = Report.objects.select_related(
        "message", "message__user", "reported", "reporter", "game", "resolved_by"
    )
    return related.filter(pk=report_id).first()


def conversation(message: ChatMessage) -> list[ChatMessage]:
    """The messages around `message` in its game, hidden ones included (the desk marks them)."""
    if message.tournament_id is not None:  # a tournament page's chat
        around = ChatMessage.objects.filter(tournament_id=message.tournament_id)
    else:
        around = ChatMessage.objects.filter(game_id=message.game_id)
    earlier = around.filter(created__lte=message.created).exclude(pk=message.pk)
    before = list(earlier.order_by("-created", "-pk")[:CONTEXT_BEFORE])[::-1]
    after = list(
        around.filter(created__gte=message.created)
        .exclude(pk=message.pk)
        .exclude(pk__in=[m.pk for m in before])
        .order_by("created", "pk")[:CONTEXT_AFTER]
    )
    return [*before, message, *after]


@dataclass(frozen=True)
class GameContext:
    game: Game
    seats: list[Seat]
    chat: list[ChatMessage]


def game_context(game_id: str) -> GameContext | None:
    """A player report's game: who sat where, how far it went, and its last chat lines."""
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    if game is None:
        return None
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    chat = ChatMessage.objects.filter(game=game).order_by("-created", "-pk")[:GAME_CHAT_LINES]
    return GameContext(game, seats, list(chat)[::-1])


@dataclass(frozen=True)
class Coins:
    balance: int
    movements: list[Any]  # LedgerEntry rows, newest first


@dataclass(frozen=True)
class History:
    player: User
    reports: list[Report]  # earlier reports about the player, newest first
    sanctions: list[AuditLog]  # mutes and bans, given and lifted
    other_actions: list[AuditLog]  # everything else moderators did about them
    coins: Coins | None = field(default=None)  # for Admins only


def history(player: User, *, besides: Report, with_coins: bool) -> History:
    """The reported player's past on the site's record. `with_coins` only for those who may read the
    ledger (the Admin group)."""
    reports = (
        Report.objects.filter(Q(reported=player) | Q(message__user=player))
        .exclude(pk=besides.pk)
        .select_related("message", "reporter", "resolved_by")
        .order_by("-created", "-pk")[:HISTORY_ROWS]
    )
    entries = AuditLog.objects.filter(user=player).select_related("moderator")
    sanctions = entries.filter(action__in=SANCTIONS)[:HISTORY_ROWS]
    others = entries.exclude(action__in=SANCTIONS)[:HISTORY_ROWS]
    coins = coins_of(player.pk) if with_coins else None
    return History(player, list(reports), list(sanctions), list(others), coins)


def coins_of(user_id: int) -> Coins:
    """The balance and the last movements of the player's wallet (read only: no wallet is made)."""
    from ..ledger.models import LedgerAccount, LedgerEntry

    wallet = LedgerAccount.objects.filter(kind=LedgerAccount.Kind.WALLET, user_id=user_id).first()
    if wallet is None:
        return Coins(0, [])
    movements = (
        LedgerEntry.objects.filter(account=wallet)
        .select_related("transaction", "transaction__game")
        .order_by("-pk")[:COIN_MOVEMENTS]
    )
    return Coins(wallet.balance, list(movements))
