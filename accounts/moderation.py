"""What moderators do to accounts: mute, ban, rename, and resolving the reports queue.

Each `do_*` checks the moderator's permission, changes the account inside one transaction together with
its audit log entry, and acts on the outside world (sessions, sockets, games) only after commit. The
admin's actions call these; so do tests. Games are changed only through games.actions' `do_*` functions.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import audit, sockets
from .errors import ModerationError

__all__ = ["ModerationError"]  # raised by these services; admin code catches it from here


def _require(moderator, permission: str) -> None:
    if not (moderator.is_active and moderator.is_staff and moderator.has_perm(permission)):
        raise ModerationError("You don't have permission to do that.")


def _lock(user):
    """The account's row, locked first (the lock order is in games/actions/core.py). NO KEY: a game's
    transaction writing a row that points at the account (a result, a chat line) must not wait for
    the moderator while it holds the game the moderator's action is about to lock."""
    return get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)


def _lock_for(moderator, user):
    """The account an action is about, its row locked and checked against the rules every moderator
    action on an account follows (one check for all: mute, ban, rename, coins, lifting a mute or a ban,
    and resolving a report through `_may_act_on`)."""
    user = _lock(user)
    _may_act_on(moderator, user)  # read from the locked row: a promotion racing the action is seen
    return user


def _may_act_on(moderator, user) -> None:
    if user.pk == moderator.pk:
        raise ModerationError("You can't do that to your own account.")
    if user.is_staff and not moderator.is_superuser:
        raise ModerationError("Only a superuser can do that to a staff account.")


def _reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason: the player is shown it.")
    return reason[:200]


def when(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%d %b %Y %H:%M %Z")


# --- mute ----------------------------------------------------------------------------------------------


def mute_notice(user) -> str:
    """The sentence a muted player is refused with, or "" if they may chat."""
    if user is None or not user.is_muted:
        return ""
    return f"Muted until {when(user.muted_until)}: {user.mute_reason}"


def mute_notice_for(user_id: int | None) -> str:
    """mute_notice for an account id (one query, only for a logged-in viewer)."""
    if user_id is None:
        return ""
    user = get_user_model().objects.filter(pk=user_id, muted_until__gt=timezone.now()).first()
    return mute_notice(user)


def _mute_state(user) -> dict:
    until = user.muted_until.isoformat() if user.muted_until else None
    return {"muted_until": until, "mute_reason": user.mute_reason}


def do_mute(moderator, user, until: datetime, reason: str):
    _require(moderator, "accounts.mute_user")
    reason = _reason(reason)
    if until <= timezone.now():
        raise ModerationError("A mute must end in the future.")
    with transaction.atomic():
        user = _lock_for(moderator, user)
        before = _mute_state(user)
        user.muted_until, user.mute_reason = until, reason
        user.save(update_fields=["muted_until", "mute_reason"])
        audit.record(
            moderator, "mute", user=user, reason=reason, before=before, after=_mute_state(user)
        )
    return user


def do_unmute(moderator, user, reason: str):
    _require(moderator, "accounts.mute_user")
    reason = _reason(reason)
    with transaction.atomic():
        user = _lock_for(moderator, user)
        before = _mute_state(user)
        user.muted_until, user.mute_reason = None, ""
        user.save(update_fields=["muted_until", "mute_reason"])
        audit.record(
            moderator, "unmute", user=user, reason=reason, before=before, after=_mute_state(user)
        )
    return user


# --- ban -----------------------------------------------------------------------------------------------


def _ban_state(user) -> dict:
    return {
        "is_active": user.is_active,
        "banned_until": user.banned_until.isoformat() if user.banned_until else None,
        "ban_reason": user.ban_reason,
    }


def do_ban(moderator, user, reason: str, until: datetime | None = None):
    """The player can't log in, their sessions end and their open pages are disconnected at once, and
    they give up every game they sit in, at once (games.actions.moderation.remove_banned_player)."""
    _require(moderator, "accounts.ban_user")
    reason = _reason(reason)
    if until is not None and until <= timezone.now():
        raise ModerationError("A ban must end in the future (or leave the end empty).")
    with transaction.atomic():
        user = _lock_for(moderator, user)
        before = _ban_state(user)
        user.is_active = False
        user.banned_at, user.banned_until, user.ban_reason = timezone.now(), until, reason
        user.save(update_fields=["is_active", "banned_at", "banned_until", "ban_reason"])
        audit.record(
            moderator, "ban", user=user, reason=reason, before=before, after=_ban_state(user)
        )
        _leave_games(user)
        end_sessions(user.pk)
        user_id = user.pk
        transaction.on_commit(lambda: sockets.close_user_sockets(user_id))
    return user


def _leave_games(user) -> None:
    """The banned player's games: hook for games.actions.moderation once the game side exists."""
    try:
        from games.actions.moderation import remove_banned_player
    except ImportError:
        return
    remove_banned_player(user)


def ban_in_force(user) -> bool:
    """Banned now: a timed ban whose end has passed no longer counts, even before it is lifted."""
    if user is None or user.banned_at is None:
        return False
    return user.banned_until is None or user.banned_until > timezone.now()


def ban_notice(user) -> str:
    """What a banned player is told (on their open pages, at their next request, at log-in once the
    password was right), or "" if no ban is in force."""
    if not ban_in_force(user):
        return ""
    until = f" until {when(user.banned_until)}" if user.banned_until else ""
    return f"Your account is banned{until}: {user.ban_reason}"


def ban_notice_for(user_id: int) -> str:
    """ban_notice for an account id (one query)."""
    return ban_notice(get_user_model().objects.filter(pk=user_id).first())


def _lift(user) -> None:
    user.is_active = True
    user.banned_at, user.banned_until, user.ban_reason = None, None, ""
    user.save(update_fields=["is_active", "banned_at", "banned_until", "ban_reason"])


def do_unban(moderator, user, reason: str):
    _require(moderator, "accounts.ban_user")
    reason = _reason(reason)
    with transaction.atomic():
        user = _lock_for(moderator, user)
        if not user.is_banned:
            raise ModerationError(f"{user.username} is not banned.")
        before = _ban_state(user)
        _lift(user)
        audit.record(
            moderator, "unban", user=user, reason=reason, before=before, after=_ban_state(user)
        )
    return user


def lift_expired_ban(username: str) -> bool:
    """A timed ban whose end has passed is lifted when the player next tries to log in
    (accounts.backends). It was the moderator's decision, so it is not audited again."""
    users = get_user_model().objects
    with transaction.atomic():
        user = (
            users.select_for_update(no_key=True)
            .filter(username=username, banned_at__isnull=False, banned_until__lte=timezone.now())
            .first()
        )
        if user is None:
            return False
        _lift(user)
        return True


def lift_expired_bans() -> int:
    """Every timed ban whose end has passed is lifted (beat runs this; a log-in attempt does it too),
    so the player's profile and standings come back on time. Returns how many were lifted."""
    users = (
        get_user_model()
        .objects.filter(banned_at__isnull=False, banned_until__lte=timezone.now())
        .values_list("username", flat=True)
    )
    return sum(lift_expired_ban(username) for username in list(users))


def end_sessions(user_id: int) -> int:
    """End the account's sessions that its log-ins recorded: each keeps nothing of the log-in or the
    browser key, only a note of whose ban ended it, so the browser's next page says why. (A session the
    index missed ends at its next request: accounts.banned_sessions.)"""
    from .addresses import AccountSession
    from .banned_sessions import ended_data

    keys = list(
        AccountSession.objects.filter(user_id=user_id).values_list("session_key", flat=True)
    )
    ended = Session.objects.filter(session_key__in=keys).update(session_data=ended_data(user_id))
    AccountSession.objects.filter(user_id=user_id).delete()
    return ended


# --- rename --------------------------------------------------------------------------------------------


def do_rename(moderator, user, new_username: str, reason: str):
    """Replace an offensive username (the old one stays in the audit log)."""
    _require(moderator, "accounts.rename_user")
    reason = _reason(reason)
    new_username = (new_username or "").strip()
    users = get_user_model().objects
    try:
        UnicodeUsernameValidator()(new_username)
    except ValidationError as error:
        raise ModerationError(" ".join(error.messages)) from error
    if not new_username or len(new_username) > 150:
        raise ModerationError("A username is 1 to 150 characters.")
    with transaction.atomic():
        user = _lock_for(moderator, user)
        _lock_live_games(user)  # before the username (a key) changes: see games.actions.core
        if users.filter(username__iexact=new_username).exclude(pk=user.pk).exists():
            raise ModerationError(f"The name {new_username} is taken.")
        before = {"username": user.username}
        user.username = new_username
        user.save(update_fields=["username"])
        _rename_in_games(user, before["username"])
        audit.record(
            moderator,
            "rename",
            user=user,
            reason=reason,
            before=before,
            after={"username": new_username},
        )
    return user


# A finished game's page may stay open for a while: its board is pushed the new name too.
RENAMED_PAGES_OPEN = timedelta(days=1)


def _lock_live_games(user) -> None:
    """The games the player sits in that can still end a round, locked after the account: a round
    ending in one of them waits for the rename (and then shows the new name), or the rename waits for
    it (and then renames what it wrote)."""
    from games.actions.core import lock_games
    from games.models import Game, Seat

    live = Seat.objects.filter(user=user).exclude(
        game__status__in=[Game.Status.FINISHED, Game.Status.ABANDONED]
    )
    lock_games(live.values_list("game_id", flat=True))


def _rename_in_games(user, old: str) -> None:
    """Seats, chat lines and results keep a copy of the name they were written under: the old name
    goes too (the move log and message line name accounts by reference, filled in when shown). Open
    pages of the player's recent games are pushed the new name once the rename commits."""
    from games.models import ChatMessage, Game, Seat
    from leaderboard.models import Result

    Seat.objects.filter(user=user, name=old).update(name=user.username)
    ChatMessage.objects.filter(user=user, name=old).update(name=user.username)
    Result.objects.filter(user=user, name=old).update(name=user.username)
    recent = Q(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING]) | Q(
        game__updated__gte=timezone.now() - RENAMED_PAGES_OPEN
    )
    games = list(
        Seat.objects.filter(recent, user=user).values_list("game_id", flat=True).distinct()
    )
    transaction.on_commit(lambda: _tell_renamed(games))


def _tell_renamed(game_ids: list[str]) -> None:
    from games import broadcast

    for game_id in game_ids:
        broadcast.names_changed(game_id)


# --- the reports queue ---------------------------------------------------------------------------------


def report_target(report):
    """The player a report is about: the reported player, or the reported message's author."""
    if report.reported_id:
        return report.reported
    return report.message.user if report.message_id else None


def do_resolve_report(moderator, report, outcome: str, reason: str, until: datetime | None = None):
    """Close a report with an outcome, doing what it says (hide the message, mute or ban its author).
    Other open reports of the same message close with it."""
    from games.models import ChatReport

    Outcome = ChatReport.Outcome
    _require(moderator, "games.change_chatreport")
    if outcome not in (Outcome.DISMISSED, Outcome.HIDDEN, Outcome.MUTED, Outcome.BANNED):
        raise ModerationError("Choose what to do with the report.")
    reason = " ".join((reason or "").split())[:300]
    with transaction.atomic():
        report = ChatReport.objects.select_for_update().get(pk=report.pk)
        if not report.is_open:
            raise ModerationError("That report is resolved already.")
        target = report_target(report)
        if target is not None:  # the same rules as every action on an account
            _may_act_on(moderator, target)
        if outcome == Outcome.HIDDEN:
            if report.message_id is None:
                raise ModerationError("A player report has no message to hide.")
            from games.actions.moderation import do_hide_message

            do_hide_message(moderator, report.message, reason or "Reported message")
        elif outcome == Outcome.MUTED:
            if target is None or until is None:
                raise ModerationError("Say how long the mute lasts.")
            do_mute(moderator, target, until, reason)
        elif outcome == Outcome.BANNED:
            if target is None:
                raise ModerationError("That report names no player.")
            do_ban(moderator, target, reason, until)
        same = ChatReport.objects.filter(resolved_at__isnull=True)
        same = (
            same.filter(message_id=report.message_id)
            if report.message_id
            else same.filter(pk=report.pk)
        )
        closed = same.update(
            outcome=outcome, resolved_by=moderator, resolved_at=timezone.now(), note=reason
        )
        audit.record(
            moderator,
            "resolve_report",
            user=target,
            game_id=report.game_id or (report.message.game_id if report.message_id else ""),
            reason=reason,
            before={"report": report.pk, "outcome": "open"},
            after={"report": report.pk, "outcome": outcome, "reports_closed": closed},
        )
    report.refresh_from_db()
    return report


# --- coins ---------------------------------------------------------------------------------------------


def do_adjust_coins(moderator, user, amount: int, reason: str) -> int:
    """Add (amount > 0) or take (amount < 0) coins as one ledger transaction of kind "adjustment"; a
    wallet never goes below zero. A finished staked game is never re-settled: this is its correction.
    Returns the new balance."""
    from accounts.ledger.adjustments import adjust_coins
    from accounts.ledger.errors import NotEnoughCoins
    from accounts.ledger.history import balance_of

    _require(moderator, "accounts.adjust_coins")
    reason = _reason(reason)
    if not amount:
        raise ModerationError("Say how many coins to add (or, negative, to take).")
    with transaction.atomic():
        user = _lock_for(moderator, user)  # then the wallet: the lock order of games.actions.core
        before = balance_of(user.pk)
        try:
            with transaction.atomic():
                adjust_coins(user.pk, amount, reason)
        except NotEnoughCoins as error:
            raise ModerationError(
                f"{user.username} has {before:,} coins: {-amount:,} can't be taken."
            ) from error
        after = balance_of(user.pk)
        audit.record(
            moderator,
            "adjust_coins",
            user=user,
            reason=reason,
            before={"coins": before},
            after={"coins": after, "amount": amount},
        )
    return after
