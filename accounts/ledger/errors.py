"""Why the ledger refused to move coins. Each is a game-style error (HTTP status and a sentence a player
can read), so views and game actions show it as they show any refusal; nothing was written."""

from __future__ import annotations

from games.errors import Conflict


class NotEnoughCoins(Conflict):
    pass


class TopUpRefused(Conflict):
    pass
