"""Invariants tying staked games to their escrows, run with the ledger's own (`manage.py check_ledger`
and the hourly check: games/apps.py adds them with accounts.ledger.checks.also_check).

- a finished or cancelled staked game's escrow is empty and has exactly one closing transaction;
- an open room's escrow holds the host's stake, a game in play both stakes, and neither is closed.
"""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from accounts.ledger.models import LedgerAccount

from ..models import Game

LIMIT = 20


def staked_game_problems() -> list[str]:
    over = [Game.Status.FINISHED, Game.Status.ABANDONED]
    held = {Game.Status.OPEN: 1, Game.Status.PLAYING: 2}
    escrows = LedgerAccount.objects.filter(kind=LedgerAccount.Kind.ESCROW)
    found = []
    staked = Game.objects.filter(stake__gt=0)
    no_escrow = staked.exclude(ledger_accounts__kind=LedgerAccount.Kind.ESCROW)
    if no_escrow.exists():
        found.append(f"Staked games without an escrow: {_ids(no_escrow)}")
    unstaked = escrows.filter(game__stake=0)
    if unstaked.exists():
        found.append(
            f"Escrows of games without a stake: {', '.join(str(a) for a in unstaked[:LIMIT])}"
        )
    unsettled = escrows.filter(game__status__in=over).filter(
        Q(closing__isnull=True) | ~Q(balance=0)
    )
    if unsettled.exists():
        found.append(
            "Finished or cancelled staked games whose escrow is not closed and empty: "
            + ", ".join(f"{a.game_id} holds {a.balance}" for a in unsettled[:LIMIT])
        )
    for status, players in held.items():
        wrong = escrows.filter(game__status=status, game__stake__gt=0).filter(
            Q(closing__isnull=False) | ~Q(balance=F("game__stake") * players)
        )
        if wrong.exists():
            found.append(
                f"Staked games {status} whose escrow does not hold {players} stake(s): "
                + ", ".join(
                    f"{a.game_id} holds {a.balance} (stake {a.game.stake})"  # type: ignore[union-attr]  # an escrow has a game
                    for a in wrong.select_related("game")[:LIMIT]
                )
            )
    return found


def _ids(games: QuerySet[Game]) -> str:
    return ", ".join(str(pk) for pk in games.values_list("pk", flat=True)[:LIMIT])
