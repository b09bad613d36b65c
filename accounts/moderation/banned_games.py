"""A banned player out of their games and tournaments: at the ban, every room and game they sit in and
every tournament they are in, and afterwards the deadline sweeper's pass for a seat taken after the
ban looked. Each seat is given up through the players' own leaving code (`give_up_for_ban` under the
game's lock; a tournament's `leave` or `forfeit` under its own)."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet

from accounts.models import User
from games.actions.core import lock_games
from games.actions.leaving import give_up_for_ban
from games.actions.state import seats_in
from games.core.actors import Actor
from games.models import Game, Seat
from games.tournaments.models import Tournament, TournamentEntry
from games.tournaments.registration import do_forfeit, do_leave
from ludopat.refusals import Refusal

log = logging.getLogger(__name__)


def remove_banned_player(user: User) -> None:
    """A ban counts as the player giving up, at that moment, everywhere they sit. Called inside the
    ban's transaction, which holds the account's row: the player's rooms and games are locked next (the
    lock order of games.actions.core) and each is decided on as it is then. Rooms not started: they
    leave (a host's room closes, every stake refunded). Games in play, staked or not: each of their
    seats resigns (with one opponent left, the opponent wins; otherwise the computer plays the seat on,
    placed last). (Their games against the computer are theirs alone: the idle sweeper closes them.)
    Then their tournaments, each under its own lock after the rooms: a registering seat is left, its
    buy-in refunded; a tournament in play is forfeited (its match in play was resigned above; its pot
    is the prizes already).
    The deadline sweeper calls this again for a seat taken after the ban looked (give_up_banned_seats).
    No player's command is sent: a banned account's commands are refused."""
    for game in lock_games(_live_rooms_of(user.pk)):
        if game.status in (
            Game.Status.OPEN,
            Game.Status.PLAYING,
        ):  # else it ended as the ban waited
            give_up_for_ban(game, seats_in(game), user.pk)
    for tournament_id in _tournaments_of(user.pk):
        _give_up_tournament(user.pk, tournament_id)


def _give_up_tournament(user_id: int, tournament_id: int) -> None:
    """Leave before the start, forfeit after it: the players' own services, which decide under the
    tournament's lock (a leave refused because it started as the ban looked is a forfeit)."""
    player = Actor(user_id, "")
    try:
        do_leave(player, tournament_id)
    except Refusal:
        pass  # started: forfeited next
    else:
        return
    try:
        do_forfeit(player, tournament_id)
    except Refusal:
        # Out already (its last match ended as the ban looked), or a match that changed just now:
        # the sweeper's next pass asks again.
        log.info("tournament %s: banned user %s not forfeited now", tournament_id, user_id)


def give_up_banned_seats(limit: int = 100) -> int:
    """The deadline sweeper's part (beat, every ~2 s, games.tasks.sweep_deadlines): a seat a banned
    account still holds in a room waiting or in play is given up as the ban gives it up. That is a seat
    taken after the ban looked, such as a join that committed after the ban's own sweep. Returns how
    many accounts were swept."""
    users = get_user_model().objects
    # The partial index on banned accounts keeps this small: a few banned accounts, their seats.
    banned = (
        Seat.objects.filter(user__banned_at__isnull=False, resigned=False)
        .filter(game__mode=Game.Mode.FRIENDS)
        .filter(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .values_list("user_id", flat=True)
        .distinct()
    )
    entered = (  # a registration that committed after the ban's own pass
        _unfinished_entries()
        .filter(user__banned_at__isnull=False)
        .values_list("user_id", flat=True)
        .distinct()
    )
    swept = 0
    for user_id in sorted(set(banned[:limit]) | set(entered[:limit])):
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


def _unfinished_entries() -> QuerySet[TournamentEntry]:
    """Entries still in a tournament not over: registered, or in the bracket and not out yet."""
    return TournamentEntry.objects.filter(
        tournament__status__in=[Tournament.Status.OPEN, Tournament.Status.PLAYING],
        place__isnull=True,
        forfeited=False,
    )


def _tournaments_of(user_id: int) -> list[int]:
    return list(
        _unfinished_entries()
        .filter(user_id=user_id)
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
    )


def _live_rooms_of(user_id: int) -> QuerySet[Seat, str]:
    """Ids of the rooms where the account holds a seat it hasn't given up, waiting or in play."""
    return (
        Seat.objects.filter(user_id=user_id, resigned=False, game__mode=Game.Mode.FRIENDS)
        .filter(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .values_list("game_id", flat=True)
    )
