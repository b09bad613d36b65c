"""Games nobody finishes are closed, so "Continue" and the open-game queries don't grow for ever.

A game against the computer or at a pass & play table closes after 30 days without an action, a room
still waiting for players after 24 hours, an untimed room in play after 7 days. A timed room never
idles: its clock hands absent players' turns to the computer, which plays the game out (but a staked
game both players have left is voided: games.actions.absence). A game closed as idle counts for nobody. Celery beat runs `close_idle_games` (games.tasks.close_idle_games).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from ..core.errors import GameNotFound
from ..core.round_ends import RoundEnd
from ..models import Action, Game
from .core import lock_game
from .rounds import end_round
from .state import seats_in

SOLO_IDLE = timedelta(days=30)  # against the computer, pass & play
WAITING_IDLE = timedelta(hours=24)  # a room waiting for players
UNTIMED_IDLE = timedelta(days=7)  # a room in play without a timer
CLOSED_TEXT = "Closed: nobody played for a long time."


def idle_games(now: datetime | None = None) -> QuerySet[Game]:
    """Games left unplayed long enough to be closed (`updated` moves with every action)."""
    now = now or timezone.now()
    live = [Game.Status.OPEN, Game.Status.PLAYING]
    solo = Q(
        mode__in=[Game.Mode.COMPUTER, Game.Mode.LOCAL],
        status__in=live,
        updated__lt=now - SOLO_IDLE,
    )
    waiting = Q(mode=Game.Mode.FRIENDS, status=Game.Status.OPEN, updated__lt=now - WAITING_IDLE)
    untimed = Q(
        mode=Game.Mode.FRIENDS,
        status=Game.Status.PLAYING,
        timer_seconds=0,
        updated__lt=now - UNTIMED_IDLE,
    )
    return Game.objects.filter(solo | waiting | untimed)


def do_close_idle(game_id: str, now: datetime | None = None) -> bool:
    """Close one idle game; False if it is not idle (any more: someone played since it was listed)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not idle_games(now).filter(pk=game.pk).exists():
            return False
        seats = seats_in(game)
        # A room that never started has no round to keep: it is cancelled, as when its host closes it.
        how = RoundEnd.CANCEL if game.status == Game.Status.OPEN else RoundEnd.IDLE
        end_round(
            game,
            seats,
            places=[],
            how=how,
            action=Action.Kind.ABANDON,
            data={"idle": True},
            text=CLOSED_TEXT,
        )
        return True


def close_idle_games(limit: int = 500) -> int:
    """Beat: close up to `limit` idle games (the rest on the next run); how many were closed."""
    ids = list(idle_games().order_by("updated").values_list("pk", flat=True)[:limit])
    closed = 0
    for game_id in ids:
        try:
            closed += do_close_idle(game_id)
        except GameNotFound:  # deleted since it was listed
            continue
    return closed
