"""Accounts at the bottom of the site: what a log-in, a browser and a socket leave behind, who is online,
and a mute's or a ban's state as the rest of the site reads it (the User model is accounts/models.py).

    addresses        the addresses an account logged in from, and the sessions it holds
    browsers         the browser's own identity, kept across log-ins, and the accounts used in it
    sanctions        whether a mute or a ban is in force, and what the player is told
    backends         log-in: a timed ban ends by itself
    banned_sessions  a banned account's sessions end at their next request
    online           who is online (Redis)
    sockets          an account's sockets in one group, so a ban closes them all
"""
