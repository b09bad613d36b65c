"""Public tables: Play now's waiting list, and the free timed rooms of 2 or 4 it seats strangers at
(docs/tables.md).

One module per job, each importing only the ones above it in this list (and the games' core, the
leaderboard's ratings, accounts' browsers and blocks below them: pyproject.toml's import contracts):

    models      TableWait, a player's place on the waiting list (a table of the games app)
    kinds       what a public table is: rule set and options, 2 or 4 seats, the timer; its key
    seating     whom the list seats together: the rating ranges, blocks and browsers, computers
    escalation  a leaver's next press waits longer
    waiting     Play now: pressing, stopping, seating a kind's waiting players at new tables
    sweeper     every couple of seconds: unattended entries stop, widened ranges are seated
    reads       the waiting screen's reads

The views, URLs and forms are the endpoints' (games/web/tables_views.py, tables_urls.py,
tables_forms.py). This module imports nothing: games.models imports `models` while Django loads the
models, before the rest could be imported.
"""
