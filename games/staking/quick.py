"""Quick match: a press pairs the player with the longest-waiting player at the same stake and rule
set, or leaves them waiting in a quick-match entry (a staked room nobody else sees in the lobby).
"""

from __future__ import annotations

import zlib

from django.db import connection, transaction

from accounts import browsers
from accounts.ledger import rules as ledger_rules

from ..actions.core import lock_game
from ..actions.state import seats_in
from ..actors import Actor
from ..errors import GameError
from ..models import Game
from .keys import answer, first_answer
from .rooms import create_staked_room, seat_and_start
from .rules import (
    DEFAULT_TIMER,
    TWO_PLAYER_RULESETS,
    account_of,
    check_stake_for,
    needs_account,
    parse_stake,
)


def _queue_lock(tier: int, ruleset: str) -> None:
    """One quick-match press per tier and rule set at a time, so two people pressing together are
    paired with each other instead of both waiting. (SQLite: its write lock already serialises.)"""
    if connection.vendor == "postgresql":
        # crc32, not hash(): the key must be the same in every process.
        key = zlib.crc32(f"quick-match:{tier}:{ruleset}".encode()) & 0x7FFFFFFF
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x1D0, key])


def quick_match(
    actor: Actor, tier: object, ruleset: str = "twodice", key: str | None = None
) -> Game:
    """Pair with the longest-waiting player at this stake and rule set, or wait for one."""
    needs_account(actor, "play a quick match")
    stake = parse_stake(tier)
    if stake not in ledger_rules.stake_tiers():
        tiers = ", ".join(f"{t:,}" for t in ledger_rules.stake_tiers())
        raise GameError(f"Quick match stakes are {tiers} coins.")
    if ruleset not in TWO_PLAYER_RULESETS:
        raise GameError("Choose a rule set for two players.")
    with transaction.atomic():
        _queue_lock(stake, ruleset)
        request, first = first_answer(actor, key, ("quick", stake, ruleset))
        if first is not None:
            return first
        waiting = (
            Game.objects.filter(quick=True, stake=stake, ruleset=ruleset, status=Game.Status.OPEN)
            .exclude(owner_id=actor.user_id)
            .exclude(owner_id__in=browsers.accounts_sharing_a_browser_with(account_of(actor)))
            .order_by("created", "pk")
            .values_list("pk", flat=True)
        )
        for game_id in waiting[:5]:
            game = lock_game(game_id)
            if game.status != Game.Status.OPEN:
                continue
            check_stake_for(account_of(actor), stake)
            seat_and_start(game, seats_in(game), actor)
            return answer(request, game)
        # Nobody to pair with: wait, still holding the queue's lock, so whoever presses next finds us.
        game = create_staked_room(actor, ruleset, stake, DEFAULT_TIMER, None, quick=True)
        return answer(request, game)
