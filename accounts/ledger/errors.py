"""Why the ledger refused to move coins. Each is a refusal (ludopat.refusals: an HTTP status and a
sentence a player can read), so views and game actions show it as they show any refusal; nothing was
written. They build on the plumbing's refusal, not on the games' errors: the ledger knows no game code."""

from __future__ import annotations

from ludopat.refusals import Refusal


class NotEnoughCoins(Refusal):
    status = 409


class TopUpRefused(Refusal):
    status = 409
