"""Rated quick match: a press pairs the player with the closest-rated waiting player at the same stake
and rule set, within both players' ranges (games/staking/pairing.py), or leaves them waiting in a
quick-match entry (a staked room nobody else sees in the lobby). The sweeper pairs waiting entries as
their ranges widen (sweeper.pair_waiting, through `pair_entries`).

One press, or one sweep's pass, per stake and rule set at a time (`queue_lock`, a transaction's
advisory lock taken before any row), then the games' rows, then the wallets (docs/architecture.md's
lock order).
"""

from __future__ import annotations

import zlib
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from accounts.ledger import rules as ledger_rules
from accounts.users import browsers
from accounts.users.sanctions import ban_notice_for
from leaderboard.ratings.reads import shown_ratings

from ..actions.core import lock_game, lock_games
from ..actions.leaving import close_before_start
from ..actions.state import seats_in
from ..core.actors import Actor
from ..core.errors import Conflict, GameError
from ..models import Action, Game
from .commitments import refuse_pairing
from .keys import answer, first_answer
from .pairing import may_meet
from .rooms import PAIRED_INTO, SAME_BROWSER, do_create_staked_room, seat_and_start
from .rules import (
    DEFAULT_TIMER,
    TWO_PLAYER_RULESETS,
    account_of,
    check_stake_for,
    needs_account,
    parse_stake,
)

# At most this many entries of one stake and rule set are read by a press or a sweep's pass: nobody
# waits longer than the range's "anyone" (pairing.ANYONE_AFTER), so a queue is never longer.
QUEUE_READ = 500


def queue_lock(tier: int, ruleset: str) -> None:
    """One quick-match press, or one sweep's pass, per tier and rule set at a time, so two people
    pressing together are paired with each other instead of both waiting, and a sweep pairs the
    queue it read. (SQLite: its write lock already serialises.) Re-entrant within a transaction."""
    if connection.vendor == "postgresql":
        # crc32, not hash(): the key must be the same in every process.
        key = zlib.crc32(f"quick-match:{tier}:{ruleset}".encode()) & 0x7FFFFFFF
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x1D0, key])


def waiting_entries(stake: int, ruleset: str) -> list[tuple[str, int, datetime]]:
    """(game id, player, made) of the open quick-match entries at this stake and rule set, oldest
    first."""
    rows = (
        Game.objects.filter(quick=True, stake=stake, ruleset=ruleset, status=Game.Status.OPEN)
        .exclude(owner__isnull=True)
        .order_by("created", "pk")
        .values_list("pk", "owner_id", "created")
    )
    return list(rows[:QUEUE_READ])


def _closest_waiting(user_id: int, stake: int, ruleset: str) -> list[str]:
    """The entries a press may pair with, closest in rating first (then the longest waiting): each
    player within the other's range, the presser having waited no time."""
    now = timezone.now()
    unwelcome = browsers.accounts_sharing_a_browser_with(user_id) | {user_id}
    rows = [row for row in waiting_entries(stake, ruleset) if row[1] not in unwelcome]
    if not rows:
        return []
    ratings = shown_ratings({owner for _, owner, _ in rows} | {user_id}, ruleset)
    mine = ratings[user_id].value
    fits = [
        (abs(ratings[owner].value - mine), made, game_id)
        for game_id, owner, made in rows
        if may_meet(mine, 0, ratings[owner].value, (now - made).total_seconds())
    ]
    return [game_id for _gap, _made, game_id in sorted(fits)]


def do_quick_match(
    actor: Actor, tier: object, ruleset: str = "twodice", key: str | None = None
) -> Game:
    """Pair with the closest-rated waiting player at this stake and rule set, or wait for one."""
    needs_account(actor, "play a quick match")
    stake = parse_stake(tier)
    if stake not in ledger_rules.stake_tiers():
        tiers = ", ".join(f"{t:,}" for t in ledger_rules.stake_tiers())
        raise GameError(f"Quick match stakes are {tiers} coins.")
    if ruleset not in TWO_PLAYER_RULESETS:
        raise GameError("Choose a rule set for two players.")
    with transaction.atomic():
        queue_lock(stake, ruleset)
        request, first = first_answer(actor, key, ("quick", stake, ruleset))
        if first is not None:
            return first
        # Under the queue's lock no other press or sweep pairs these entries; a host's cancel or the
        # sweeper's withdrawal may still close one, so a few are tried.
        for game_id in _closest_waiting(account_of(actor), stake, ruleset)[:5]:
            game = lock_game(game_id)
            if game.status != Game.Status.OPEN:
                continue
            check_stake_for(account_of(actor), stake)
            seat_and_start(game, seats_in(game), actor)
            return answer(request, game)
        # Nobody to pair with: wait, still holding the queue's lock, so whoever presses next finds us.
        game = do_create_staked_room(actor, ruleset, stake, DEFAULT_TIMER, None, quick=True)
        return answer(request, game)


MERGED_TEXT = (
    "Paired with another player's quick match: "
    "the stake went back to the wallet and into that game."
)


def pair_entries(earlier_id: str, later_id: str) -> Game:
    """Pair two waiting entries (the sweeper's pass, once their ranges overlap), in one transaction:
    the later entry closes (its stake refunded, its log naming the game it joined) and its player takes
    the earlier entry's open seat with the stake escrowed again, and that game starts. Returns it.

    Refused (GameError, nothing written) unless both are still open quick-match entries at one stake
    and rule set, of two accounts that may play each other for coins."""
    with transaction.atomic():
        queue = Game.objects.filter(pk=earlier_id).values_list("stake", "ruleset").first()
        if queue is None:
            raise Conflict("That quick-match entry is gone.")
        queue_lock(*queue)  # before any row (the sweep's pass holds it already)
        games = {game.pk: game for game in lock_games([earlier_id, later_id])}
        earlier, later = games.get(earlier_id), games.get(later_id)
        if earlier is None or later is None or earlier_id == later_id:
            raise Conflict("Those quick-match entries are gone.")
        host, later_player = _refuse_pairing(earlier, later)
        # The game starts for both: neither may hold anything else for coins (the earlier entry's
        # player was never asked at a door for this game; the later one merges their own entry).
        refuse_pairing({host: earlier.pk, later_player: later.pk})
        later_seats = seats_in(later)
        player = Actor(later_player, later_seats[0].player_key)
        close_before_start(later, later_seats, MERGED_TEXT, {PAIRED_INTO: earlier.pk})
        seat_and_start(earlier, seats_in(earlier), player)
        return earlier


def _refuse_pairing(earlier: Game, later: Game) -> tuple[int, int]:
    """Refused unless the two entries may be paired; the earlier and the later entry's players."""
    host, player = earlier.owner_id, later.owner_id
    for entry in (earlier, later):
        if not entry.quick or entry.status != Game.Status.OPEN:
            raise Conflict("That quick-match entry is no longer waiting.")
    if host is None or player is None:
        raise Conflict("That quick-match entry has no player any more.")
    if (earlier.stake, earlier.ruleset) != (later.stake, later.ruleset):
        raise Conflict("Quick-match entries pair only at one stake and rule set.")
    if host == player:
        raise Conflict("A player is never paired with themselves.")
    if browsers.share_a_browser(host, player):
        raise Conflict(SAME_BROWSER)
    for user_id in (host, player):  # a ban landing: its own sweep closes the entry
        notice = ban_notice_for(user_id)
        if notice:
            raise Conflict(notice)
    return host, player


def paired_into(entry: Game) -> str | None:
    """The game a closed entry's player was seated in by the sweeper (None: cancelled, or open)."""
    if entry.status == Game.Status.OPEN:
        return None
    data = (
        Action.objects.filter(game=entry, kind=Action.Kind.ABANDON)
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    found = data.get(PAIRED_INTO) if isinstance(data, dict) else None
    return found if isinstance(found, str) else None
