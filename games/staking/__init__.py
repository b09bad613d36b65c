"""Staked play: rooms for two played for coins, quick match, rematches (issue 10, docs/ledger.md).

Coins move only through the ledger (accounts.ledger) and only inside the games' transactions. One
module per job, each importing only the ones above it in this list (and the games' core, the ledger,
the leaderboard below them: pyproject.toml's import contracts):

    models      StakeRequest, the forms' idempotency keys (a table of the games app)
    rules       what may be staked: rule sets, timers, a stake's bounds, the new-player cap
    keys        idempotency: a repeated form finds its first answer and moves no coin
    commitments one commitment for coins at a time, asked at every door (and the tournaments' question)
    settlement  a round-end handler: closes a staked game's escrow exactly once
    checks      the ledger invariants that tie staked games to their escrows
    rooms       creating, joining and cancelling a staked room
    quick       quick match
    rematch     a rematch offered from a finished staked game
    sweeper     withdrawing entries nobody is waiting at
    signals     leaving an account withdraws its entry
    lobby       what the staked lobby reads

games/apps.py registers the settlement, the checks and the signals when the app is ready. The views,
URLs and forms are the endpoints' (games/web/staking_views.py, games/web/staking_urls.py,
games/web/staking_forms.py), the template tags games/web/templatetags/staking.py. This module imports nothing: games.models imports `models` while Django
loads the models, before the rest could be imported.
"""
