"""Staked tournaments: sit-and-go knockouts of 1 v 1 two-dice matches for 4, 8 or 16 players, for
coins (docs/tournaments.md). Above staking and the ledger, below moderation. One module per
job, each importing only the ones above it in this list (and the games' core, the ledger, the
leaderboard and staking below them):

    models        Tournament, TournamentEntry, TournamentMatch (tables of the games app)
    rules         sizes, buy-ins, the prize split, the countdown
    scores        a match's score: each side's tokens home
    live          telling pages: the bracket's group, a player's every page (after commit)
    bracket       seeding, opening a match's room, deciding a match, the next round, the prizes
    handlers      the core's handlers: a match decided when its room's round ends, its score pushed
                  when a token reaches home
    starting_soon the "starts in N s" notice, and when a tournament's players are owed it
    registration  opening a tournament, registering, leaving (refund before the start, forfeit after)
    starting      the countdown, the start, cancelling with every buy-in back
    chat          the tournament page's chat: the game chat's rules for players and spectators
    series        an admin's recurring tournaments: their slots, beat opening each instance ahead
    checks        the ledger invariants tying tournaments to their pools
    sweeper       beat's part: tournaments due to start (or to cancel), lost countdowns
    reads         what the lobby, the bracket page (and a viewer's own part of it), the player page,
                  the home page's card and the wallet's tournament lines read

games/apps.py registers the handler, the checks and the commitment check with staking when the app is
ready. This module imports nothing: games.models imports `models` while Django loads the models.
"""
