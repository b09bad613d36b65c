"""What may be challenged: a table of 2 or 4 in a rule set that seats that many, its options, the
per-action timer (10, 15 or 30 s), rated or not; or a staked 1 v 1 under every staked rule (the
staking's rule sets, timers, a stake's bounds and the new-player cap). Checked when a challenge is
made, so a challenge that is waiting can always be played as it says (but for coins and bans, which
accepting checks again).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import engine
from ..actions.clock import timer_choices
from ..core.errors import GameError
from ..models import RULESET_NAMES
from ..staking.rules import TWO_PLAYER_RULESETS, check_stake_for, parse_stake, staked_timers
from ..staking.stake_limits import limit_for

SEATS = (2, 4)


@dataclass(frozen=True)
class Terms:
    """A challenge's table: what the challenger chose."""

    ruleset: str
    seats: int = 2
    timer_seconds: int = 15
    rated: bool = True
    stake: int = 0  # 0: free
    options: dict = field(default_factory=dict)

    def describe(self) -> str:
        """In a few words, for the notice and the lists: "Classic, 4 players, 15 s a move, rated"."""
        name = RULESET_NAMES.get(self.ruleset, self.ruleset)
        parts = [name, f"{self.seats} players", f"{self.timer_seconds} s per action"]
        parts.append(
            f"{self.stake:,} coins each" if self.stake else "rated" if self.rated else "unrated"
        )
        return ", ".join(parts)


def terms_for(
    ruleset: str,
    seats: int = 2,
    timer_seconds: int = 15,
    rated: bool = True,
    stake: object = None,
    options: dict | None = None,
) -> Terms:
    """The terms, checked (GameError with a sentence if they can't be played). `stake` None or ""
    for a free table."""
    if ruleset not in RULESET_NAMES:
        raise GameError("Choose one of the rule sets.")
    if seats not in SEATS:
        raise GameError("A challenge is to a table of 2 or 4 players.")
    if seats not in engine.seat_counts(ruleset):
        raise GameError(f"{RULESET_NAMES[ruleset]} is not played by {seats} players.")
    staked = stake not in (None, "", 0)
    allowed = staked_timers() if staked else tuple(t for t in timer_choices() if t)
    if timer_seconds not in allowed:
        raise GameError("A challenge's timer is 10, 15 or 30 seconds per action.")
    options = dict(options or {})
    try:
        engine.new_game(ruleset, engine.seat_colours(ruleset, seats), options)
    except (engine.EngineError, KeyError) as error:
        raise GameError(f"Those rules can't be played: {error}") from None
    if not staked:
        return Terms(ruleset, seats, timer_seconds, bool(rated), 0, options)
    coins = parse_stake(stake)
    if seats != 2 or ruleset not in TWO_PLAYER_RULESETS:
        raise GameError("A challenge for coins is a 1 v 1: choose 2 players.")
    return Terms(ruleset, 2, timer_seconds, True, coins, options)  # staked games are always rated


def check_stake(user_id: int, terms: Terms) -> None:
    """The new-player cap and the wallet, for the challenger at the challenge (both players' again,
    under their wallets' locks, at the accept: coins move only then)."""
    if terms.stake:
        check_stake_for(user_id, terms.stake)
        refusal = limit_for(user_id).refusal(terms.stake)
        if refusal:
            raise GameError(f"A challenge for {terms.stake:,} coins each: {refusal}")
