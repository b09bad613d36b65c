"""The games' pages in the admin, one module per kind of record (games/admin.py imports this package
for Django's discovery; registering happens on import):

    read_only    the base: viewable, never edited in a form (a save would race a live game)
    rooms        rooms with their seats, the action log, rounds, pauses; voiding a round
    chat         the games' chat; hiding messages
    tournaments  tournaments: stalled brackets, scheduling one, cancelling one

The actions ask for a reason and call moderation's `do_*` functions (accounts/web/admin_actions.py
makes them); the reports queue is accounts/web/admin_reports.py.
"""

from . import chat, rooms, tournaments  # noqa: F401
