"""What moderators do to games: hide a chat message, void the round in play, and take a banned player
out of their games. Each goes through the same lock, record, save, push-on-commit sequence as players'
actions (and, for a ban, through the players' own `do_leave` / `do_resign`), and is audited.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts import audit
from accounts.errors import ModerationError
from accounts.models import User

from .. import broadcast
from ..models import Action, ChatMessage, Game, Round, Seat
from ..round_ends import RoundEnd
from .core import lock_game, lock_games
from .leaving import give_up_for_ban
from .rounds import end_round
from .state import seats_in

log = logging.getLogger(__name__)


def _require(moderator: User, permission: str) -> None:
    if not (moderator.is_active and moderator.is_staff and moderator.has_perm(permission)):
        raise ModerationError("You don't have permission to do that.")


# --- chat ----------------------------------------------------------------------------------------------


def do_hide_message(moderator: User, message: ChatMessage, reason: str) -> ChatMessage:
    """The message disappears from every open page at once and from the chat for good (it stays in
    the database for the record and the audit log)."""
    _require(moderator, "games.hide_chatmessage")
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message.pk)
        if message.hidden_at is not None:
            return message
        message.hidden_at, message.hidden_by = timezone.now(), moderator
        message.save(update_fields=["hidden_at", "hidden_by"])
        audit.record(
            moderator,
            "hide_message",
            user=message.user,
            game_id=message.game_id,
            reason=reason,
            before={"message": message.pk, "text": message.text},
            after={"hidden": True},
        )
        game_id, message_id = message.game_id, message.pk
        transaction.on_commit(lambda: broadcast.chat_hidden(game_id, message_id))
    return message


# --- void ----------------------------------------------------------------------------------------------


def do_void(moderator: User, game_id: str, reason: str) -> Game:
    """End the round in play for nobody: stakes go back (end_round's settlement), no result counts,
    and both players see why on their board at once."""
    _require(moderator, "games.void_game")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason: the players are shown it.")
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.PLAYING:
            raise ModerationError("Only a round in play can be voided.")
        seats = seats_in(game)
        before = {"status": game.status, "round": game.round, "version": game.version}
        end_round(
            game,
            seats,
            places=[],
            how=RoundEnd.VOID,
            action=Action.Kind.ABANDON,
            data={"void": True},
            text=f"A moderator voided this round: {reason}",
        )
        audit.record(
            moderator,
            "void",
            game_id=game.pk,
            reason=reason,
            before=before,
            after={"status": game.status, "round": game.round, "version": game.version},
        )
    return game


# --- a banned player's games ---------------------------------------------------------------------------


def remove_banned_player(user: User) -> None:
    """A ban counts as the player giving up, at that moment, everywhere they sit. Called inside the
    ban's transaction, which holds the account's row: the player's rooms and games are locked next (the
    lock order of games.actions.core) and each is decided on as it is then. Rooms not started: they
    leave (a host's room closes, every stake refunded). Games in play, staked or not: each of their
    seats resigns (with one opponent left, the opponent wins; otherwise the computer plays the seat on,
    placed last). (Their games against the computer are theirs alone: the idle sweeper closes them.)
    The deadline sweeper calls this again for a seat taken after the ban looked (give_up_banned_seats).
    No player's command is sent: a banned account's commands are refused."""
    for game in lock_games(_live_rooms_of(user.pk)):
        if game.status in (
            Game.Status.OPEN,
            Game.Status.PLAYING,
        ):  # else it ended as the ban waited
            give_up_for_ban(game, seats_in(game), user.pk)


def give_up_banned_seats(limit: int = 100) -> int:
    """The deadline sweeper's part (beat, every ~2 s): a seat a banned account still holds in a room
    waiting or in play is given up as the ban gives it up. That is a seat taken after the ban looked,
    such as a join that committed after the ban's own sweep. Returns how many accounts were swept."""
    users = get_user_model().objects
    # The partial index on banned accounts keeps this small: a few banned accounts, their seats.
    banned = (
        Seat.objects.filter(user__banned_at__isnull=False, resigned=False)
        .filter(game__mode=Game.Mode.FRIENDS)
        .filter(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .values_list("user_id", flat=True)
        .distinct()
    )
    swept = 0
    for user_id in sorted(banned[:limit]):
        try:
            with transaction.atomic():
                # The account first, then its games (the lock order); still banned, or leave it be.
                user = users.select_for_update(no_key=True).filter(pk=user_id).first()
                if user is None or not user.is_banned:
                    continue
                log.warning("a seat of banned user %s is given up by the sweeper", user_id)
                remove_banned_player(user)
                swept += 1
        except Exception:  # one account's failure must not keep the others seated
            log.exception("could not give up the seats of banned user %s", user_id)
    return swept


def _live_rooms_of(user_id: int) -> QuerySet[Seat, str]:
    """Ids of the rooms where the account holds a seat it hasn't given up, waiting or in play."""
    return (
        Seat.objects.filter(user_id=user_id, resigned=False, game__mode=Game.Mode.FRIENDS)
        .filter(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .values_list("game_id", flat=True)
    )


# --- a finished round's result -------------------------------------------------------------------------


def do_void_result(moderator: User, round_: Round, reason: str) -> int:
    """Take a finished round out of the standings, as if it had never counted (the leaderboard's
    `remove_round`). Coins already paid stay paid (a correction is a coin adjustment). Returns how
    many results stopped counting."""
    from leaderboard.models import Result
    from leaderboard.results import remove_round

    _require(moderator, "games.void_game")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason.")
    with transaction.atomic():
        # Locked first, so two voids of one round decide one after the other.
        results = Result.objects.select_for_update().filter(round=round_).order_by("pk")
        rows = list(results.values_list("void", flat=True))
        if not rows:
            raise ModerationError("That round has no results.")
        if all(rows):
            raise ModerationError("That round counts for nobody already.")
        counted = remove_round(round_.pk)
        audit.record(
            moderator,
            "void_result",
            game_id=round_.game_id,
            reason=reason,
            before={"round": round_.number, "counted": [r.user_id for r in counted]},
            after={"round": round_.number, "counted": []},
        )
    return len(counted)
