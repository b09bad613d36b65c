"""Absent players: connections coming and going, and handing an absent player's seat to the computer."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from ..core import presence
from ..core.actors import Actor, playing_seats, refuse_banned
from ..core.errors import Conflict
from ..core.narration import who
from ..core.round_ends import RoundEnd
from ..models import Action, Game, Seat
from .clock import act_at, is_timed, schedule_deadline_on_commit
from .core import check_playing, lock_game, record_action, save_game
from .rounds import end_round
from .setup import seat_at
from .state import engine_state, seats_in, turn_seat

ABSENT_HANDOVER_SECONDS = 120
DESERTED_SECONDS = 60  # a staked game no player has been at for this long is void
DESERTED_TEXT = "Both players left: the game is void and both stakes were returned."


def absent_since(game: Game, seat: Seat, connected: set[int]) -> datetime | None:
    """Since when a seated player has been away (never connected: since the start)."""
    if seat.pk in connected:
        return None
    return seat.last_seen or game.started


def can_hand_over(game: Game, seat: Seat, connected: set[int], now: datetime | None = None) -> bool:
    if game.mode != Game.Mode.FRIENDS or game.status != Game.Status.PLAYING:
        return False
    if seat.kind != Seat.Kind.HUMAN or seat.bot_controlled or seat.resigned:
        return False
    since = absent_since(game, seat, connected)
    now = now or timezone.now()
    return since is not None and now - since >= timedelta(seconds=ABSENT_HANDOVER_SECONDS)


def do_replace_absent(game_id: str, actor: Actor, seat_index: int) -> Seat:
    """After two minutes of waiting, another player hands an absent seat to the computer."""
    with transaction.atomic():
        game = lock_game(game_id)
        check_playing(game)
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        mine = playing_seats(game, seats, actor, "Only the players of this game can do that.")
        seat = seat_at(seats, seat_index)
        if seat in mine:
            raise Conflict("That is your own seat.")
        connected = presence.connected_seats(game.pk)
        if not can_hand_over(game, seat, connected):
            raise Conflict(
                f"{seat.display_name} can be handed to the computer after two minutes away."
            )
        seat.bot_controlled = True
        seat.save(update_fields=["bot_controlled"])
        text = f"The computer plays for {who(seat)} until they come back."
        game.message = text
        record_action(game, Action.Kind.TAKEOVER, seat, {"bot": True}, text)
        save_game(game)
        return seat


def hand_to_computer(game: Game, seat: Seat) -> None:
    """A tournament match's player not here past the grace: the computer holds their seat and plays
    at the computer's pace (a bracket waits for every match), until their page connects
    (`seat_connected` gives it back). The caller holds the game's lock and saves the game."""
    seat.bot_controlled = True
    seat.save(update_fields=["bot_controlled"])
    text = f"The computer plays for {who(seat)} until they come back."
    record_action(game, Action.Kind.TAKEOVER, seat, {"bot": True}, text)


def seat_connected(game_id: str, seat_id: int) -> bool:
    """A seated player connected: their seat comes back from the computer (unless they resigned), and
    in a timed room an action of theirs that the grace period brought forward gets its own time back."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        seat = Seat.objects.filter(pk=seat_id, game=game).first()
        if seat is not None:
            _restore_deadline(game, seat)
        if seat is None or not seat.bot_controlled or seat.resigned or game.is_over:
            return False
        seat.bot_controlled = False
        seat.save(update_fields=["bot_controlled"])
        text = f"{who(seat)} is back and plays again."
        game.message = text
        record_action(game, Action.Kind.TAKEOVER, seat, {"bot": False}, text)
        save_game(game)
        return True


def seat_disconnected(seat_ids: list[int], game_id: str | None = None) -> None:
    """The last connection of these seats closed: remember when; in a timed room, if one of them is to
    act, the bot plays for it once the grace period is over."""
    now = timezone.now()
    Seat.objects.filter(pk__in=seat_ids).update(last_seen=now)
    if game_id is None:
        return
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not _clock_runs(game):
            return
        seats = seats_in(game)
        seat = turn_seat(game, seats, engine_state(game))
        if seat is None or seat.pk not in seat_ids or seat.is_bot:
            return
        # Their last socket closed: gone, though presence shows them for the grace (act_at's wait).
        here = presence.connected_seats(game.pk) - set(seat_ids)
        sooner = act_at(game, seat, now, connected=here)
        if game.deadline is None or sooner < game.deadline:
            game.deadline = sooner
            game.save(update_fields=["deadline"])
            schedule_deadline_on_commit(game)


def _clock_runs(game: Game) -> bool:
    return (
        is_timed(game)
        and game.status == Game.Status.PLAYING
        and not game.is_paused
        and game.turn_deadline is not None
    )


def _restore_deadline(game: Game, seat: Seat) -> None:
    """A player back online before the bot played for them: their action's own deadline again."""
    if not _clock_runs(game) or seat.is_away:
        return
    current = turn_seat(game, seats_in(game), engine_state(game))
    if current is None or current.pk != seat.pk or current.is_bot:
        return
    # (_clock_runs: the turn has its deadline)
    if game.deadline is not None and game.deadline < game.turn_deadline:  # type: ignore[operator]
        game.deadline = max(game.turn_deadline, timezone.now())  # type: ignore[type-var]
        game.save(update_fields=["deadline"])
        schedule_deadline_on_commit(game)


# --- staked games nobody is at ----------------------------------------------------------------------
#
# With both pages closed the computer would play both seats to the end and the house would take its cut
# of a game nobody played (stand-in actions never count as timeouts, so the void after three timeouts
# each never comes). Such a game is voided instead: every stake goes back.


def _deserted(now: datetime) -> QuerySet[Game]:
    """Staked games in play in which no seat has had a socket close, or done anything, for
    DESERTED_SECONDS (the database's half of the question; presence answers the other)."""
    since = now - timedelta(seconds=DESERTED_SECONDS)
    seen = Seat.objects.filter(game=OuterRef("pk"), last_seen__gt=since)
    acted = Action.objects.filter(
        game=OuterRef("pk"), seat__isnull=False, auto=Action.Auto.NONE, created__gt=since
    )
    return Game.objects.filter(stake__gt=0, status=Game.Status.PLAYING, started__lte=since).exclude(
        Exists(seen) | Exists(acted)
    )


def _nobody_here(game: Game, seats: list[Seat]) -> bool:
    """No person's seat is connected now (every seat counts as here while Redis can't be reached)."""
    here = presence.connected_seats(game.pk)
    return not any(seat.pk in here for seat in seats if seat.kind == Seat.Kind.HUMAN)


def do_void_deserted(game_id: str, now: datetime | None = None) -> bool:
    """Void a staked game nobody has been at for DESERTED_SECONDS, refunding both stakes (end_round's
    "void", so the ledger refunds); False if someone is back, or it ended, since it was listed."""
    now = now or timezone.now()
    with transaction.atomic():
        game = lock_game(game_id)
        if not _deserted(now).filter(pk=game.pk).exists():
            return False
        seats = seats_in(game)
        if not _nobody_here(game, seats):
            return False
        end_round(
            game,
            seats,
            places=[],
            how=RoundEnd.VOID,
            action=Action.Kind.ABANDON,
            data={"void": "deserted"},
            text=DESERTED_TEXT,
        )
        return True


def void_deserted_games(limit: int = 200) -> int:
    """The sweeper's pass (every couple of seconds): void the staked games nobody is at; how many."""
    voided = 0
    for game_id in _deserted(timezone.now()).values_list("pk", flat=True)[:limit]:
        voided += do_void_deserted(game_id)
    return voided


# --- staked games nobody plays ------------------------------------------------------------------------


def everyone_away(game: Game, seats: list[Seat]) -> bool:
    """A staked game whose every person is away (three timeouts in a row each)."""
    people = [seat for seat in seats if seat.kind == Seat.Kind.HUMAN]
    return bool(game.stake) and bool(people) and all(seat.is_away for seat in people)


def void_for_absence(game: Game, seats: list[Seat]) -> None:
    """Both players away: the game is voided and both stakes go back (the round-end settlement)."""
    end_round(
        game,
        seats,
        places=[],
        how=RoundEnd.VOID,
        action=Action.Kind.ABANDON,
        data={"void": "away"},
        text="Both players were away: the game is void and both stakes were returned.",
    )
