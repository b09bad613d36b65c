"""The reports queue: players report a chat message (from the game's chat) or a player (from their
page), and a moderator resolves each report with an outcome, doing what it says."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.users.sanctions import ban_in_force, ban_notice
from games.actions.chat import clean_text
from games.core.actors import Actor, refuse_banned, seats_of
from games.core.errors import Banned, Conflict, GameError, GameNotFound, NotAllowed
from games.models import ChatMessage, Game

from . import audit
from .bans import do_ban
from .chat import do_hide_message
from .errors import ModerationError
from .guards import may_act_on, require
from .models import Report
from .mutes import do_mute
from .news import reporters_have_news

# --- players report ------------------------------------------------------------------------------------


def do_report_message(game_id: str, actor: Actor, *, message_id: int, reason: str = "") -> Report:
    """A player at the table flags a message for the moderators (once per message)."""
    message = ChatMessage.objects.filter(pk=message_id, game_id=game_id).first()
    if message is None:
        raise GameNotFound("There is no such message in this game.")
    game = message.game
    assert game is not None  # noqa: S101  (found by its game)
    seats = list(game.seats.select_related("user"))
    refuse_banned(game, seats, actor)
    if not seats_of(game, seats, actor) or actor.user_id is None:
        raise NotAllowed("Only the players of this game can report a message.")
    if message.user_id == actor.user_id:
        raise Conflict("That is your own message.")
    try:
        with transaction.atomic():
            return Report.objects.create(
                message=message,
                reported_id=message.user_id,
                game=game,
                reporter_id=actor.user_id,
                reason=clean_text(reason)[:200],
            )
    except IntegrityError:
        return Report.objects.get(message=message, reporter_id=actor.user_id)


def do_report_tournament_message(
    tournament_id: int, actor: Actor, *, message_id: int, reason: str = ""
) -> Report:
    """Someone reading a tournament's chat (a player or a spectator, signed in and not banned) flags
    a line for the moderators (once per line)."""
    message = ChatMessage.objects.filter(
        pk=message_id, tournament_id=tournament_id, hidden_at__isnull=True
    ).first()
    if message is None:
        raise GameNotFound("There is no such message in this tournament's chat.")
    reporter = User.objects.filter(pk=actor.user_id).first() if actor.user_id else None
    if reporter is None:
        raise NotAllowed("Log in to report a message.")
    if ban_in_force(reporter):
        raise Banned(ban_notice(reporter))
    if message.user_id == reporter.pk:
        raise Conflict("That is your own message.")
    try:
        with transaction.atomic():
            return Report.objects.create(
                message=message,
                reported_id=message.user_id,
                reporter=reporter,
                reason=clean_text(reason)[:200],
            )
    except IntegrityError:
        return Report.objects.get(message=message, reporter=reporter)


def do_report_player(
    reporter: User | AnonymousUser | None, reported: User, *, reason: str, game_id: str = ""
) -> Report:
    """One open report per reporter and player: reporting again while it is open changes nothing."""
    if not isinstance(reporter, User):  # a visitor (AnonymousUser) or nobody
        raise NotAllowed("Log in to report a player.")
    if reporter.pk == reported.pk:
        raise Conflict("You can't report yourself.")
    reason = clean_text(reason)[:200]
    if not reason:
        raise GameError("Say what happened: the moderators read it.")
    game = Game.objects.filter(pk=game_id, seats__user=reported).first() if game_id else None
    try:
        with transaction.atomic():
            return Report.objects.create(
                reported=reported, reporter=reporter, reason=reason, game=game
            )
    except IntegrityError:
        return Report.objects.get(
            reported=reported, reporter=reporter, message__isnull=True, resolved_at__isnull=True
        )


# --- moderators resolve --------------------------------------------------------------------------------


def report_target(report: Report) -> User | None:
    """The player a report is about: the reported player, or the reported message's author."""
    if report.reported_id:
        return report.reported
    message = report.message  # None without a query when the report names none
    return message.user if message is not None else None


def do_resolve_report(
    moderator: User, report: Report, *, outcome: str, reason: str, until: datetime | None = None
) -> Report:
    """Close a report with an outcome, doing what it says (hide the message, mute or ban its author).
    Other open reports of the same message close with it."""
    Outcome = Report.Outcome
    require(moderator, "accounts.change_report")
    if outcome not in (Outcome.DISMISSED, Outcome.HIDDEN, Outcome.MUTED, Outcome.BANNED):
        raise ModerationError("Choose what to do with the report.")
    reason = " ".join((reason or "").split())[:300]
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if not report.is_open:
            raise ModerationError("That report is resolved already.")
        target = report_target(report)
        if target is not None:  # the same rules as every action on an account
            may_act_on(moderator, target)
        if outcome == Outcome.HIDDEN:
            if report.message is None:
                raise ModerationError("A player report has no message to hide.")
            do_hide_message(moderator, report.message, reason=reason or "Reported message")
        elif outcome == Outcome.MUTED:
            if target is None or until is None:
                raise ModerationError("Say how long the mute lasts.")
            do_mute(moderator, target, until=until, reason=reason)
        elif outcome == Outcome.BANNED:
            if target is None:
                raise ModerationError("That report names no player.")
            do_ban(moderator, target, reason=reason, until=until)
        same = Report.objects.filter(resolved_at__isnull=True)
        same = (
            same.filter(message_id=report.message_id)
            if report.message_id
            else same.filter(pk=report.pk)
        )
        reporters_have_news(same.values_list("reporter_id", flat=True))
        closed = same.update(
            outcome=outcome, resolved_by=moderator, resolved_at=timezone.now(), note=reason
        )
        audit.record(
            moderator,
            "resolve_report",
            user=target,
            game_id=report.game_id
            or ((report.message.game_id or "") if report.message is not None else ""),
            reason=reason,
            before={"report": report.pk, "outcome": "open"},
            after={"report": report.pk, "outcome": outcome, "reports_closed": closed},
        )
    report.refresh_from_db()
    return report
