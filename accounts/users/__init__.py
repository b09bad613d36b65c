"""Accounts at the bottom of the site: what a log-in, a browser and a socket leave behind, who is online,
and a mute's or a ban's state as the rest of the site reads it (the User model is accounts/models.py).

    addresses        the addresses an account logged in from, and the sessions it holds
    browsers         the accounts used in each browser (its cookie: web/middleware.py)
    sanctions        whether a mute or a ban is in force, and what the player is told
    backends         log-in: a timed ban ends by itself
    two_factor       a second factor: an authenticator app and recovery codes
    banned_sessions  a banned account's sessions, found and ended (at their next request: web/)
    online           who is online (Redis)
    sockets          an account's sockets in one group, so a ban closes them all
"""
