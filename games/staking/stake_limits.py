"""What a player may stake now: `limit_for(user_id)` (a new account's cap, the wallet's balance) and
`tier_choices(limit)`, which quick-match tiers they may enter and why not the others, so the lobby never
offers a stake the action would refuse."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.ledger import rules
from accounts.ledger.history import balance_of

from .rules import is_new_player
from .terms import Terms, terms


@dataclass(frozen=True)
class Limit:
    """A player's limits now: `cap`, a new account's highest stake (None once it is lifted), and the
    wallet's balance."""

    cap: int | None
    balance: int

    @property
    def games_needed(self) -> int:
        """Rounds against people that lift a new account's cap (with a day's age)."""
        return rules.new_player_limit()[1]

    @property
    def note(self) -> str:
        """A word under the stake field for a new account ("" for others)."""
        return f"(For now, at most {self.cap:,} coins: your account is new.)" if self.cap else ""

    def refusal(self, stake: int) -> str:
        """Why this player can't stake `stake` now, in the words of the action's refusal ("" if
        they can)."""
        if self.cap is not None and stake > self.cap:  # the lobby's note says until when
            return f"New accounts stake at most {self.cap:,} coins for now."
        if stake > self.balance:
            return f"You have {self.balance:,} coins."
        return ""


def limit_for(user_id: int) -> Limit:
    cap = rules.new_player_limit()[0]
    return Limit(cap if is_new_player(user_id) else None, balance_of(user_id))


@dataclass(frozen=True)
class TierChoice:
    tier: int
    terms: Terms
    refusal: str  # "" when the player may enter it


def tier_choices(limit: Limit | None) -> list[TierChoice]:
    """The quick-match tiers, each with why this player can't enter it (None: a visitor, no limits
    known; every tier is shown as open)."""
    return [
        TierChoice(tier, terms(tier), limit.refusal(tier) if limit else "")
        for tier in rules.stake_tiers()
    ]


def chosen_tier(choices: list[TierChoice], value: object) -> int | None:
    """The tier the form shows chosen: the one sent (a refused form keeps it) or offered first, if
    the player may enter it; else the first they may."""
    open_tiers = [choice.tier for choice in choices if not choice.refusal]
    asked = next((tier for tier in open_tiers if str(tier) == str(value)), None)
    return asked if asked is not None else (open_tiers[0] if open_tiers else None)
