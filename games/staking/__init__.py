"""Staked play: rooms for two played for coins, quick match, rematches (docs/ledger.md).

Coins move only through the ledger (accounts.ledger) and only inside the games' transactions. One
module per job, each importing only the ones above it in this list (and the games' core, the ledger,
the leaderboard below them: pyproject.toml's import contracts):

    models      StakeRequest, the forms' idempotency keys (a table of the games app)
    rules       what may be staked: rule sets, timers, a stake's bounds, the new-player cap
    terms       a staked game's money: each stake, the pot, the house's cut, the winner's prize
    pairing     whom a quick-match entry may meet: the range of ratings searched as time passes
    keys        idempotency: a repeated form finds its first answer and moves no coin
    commitments one commitment for coins at a time, asked at every door (and the tournaments' question)
    settlement  a round-end handler: closes a staked game's escrow exactly once
    checks      the ledger invariants that tie staked games to their escrows
    rooms       creating, joining and cancelling a staked room
    quick       quick match
    rematch     a rematch offered from a finished staked game
    sweeper     withdrawing entries nobody is waiting at
    signals     leaving an account withdraws its entry
    lobby_reads what the staked lobby reads: open rooms, their hosts, the bands of stakes
    stake_limits
                what a player may stake now: a new account's cap, the wallet, the tiers open to them
    quick_waiting_reads
                a quick-match entry's waiting screen: time waited, ratings searched, who else waits

games/apps.py registers the settlement, the checks and the signals when the app is ready. The views,
URLs and forms are the endpoints' (games/web/staking_views.py, games/web/staking_urls.py,
games/web/staking_forms.py), the template tags games/web/templatetags/staking.py. This module imports nothing: games.models imports `models` while Django
loads the models, before the rest could be imported.
"""
