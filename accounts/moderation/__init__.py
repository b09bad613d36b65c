"""Moderation: what moderators do to accounts and games, and the reports queue that leads them there.

One job per module; import the module you need (`from accounts.moderation import bans`). This file
imports nothing: accounts.models imports the package's models, so the package must load without the
services. Moderation sits above the games, the leaderboard and staking and calls their services; the
reads of a mute or a ban that those need are in accounts.users.sanctions, below them all. Its pages
are the endpoints' (the desk in accounts/web/desk_views.py; the admin's in accounts/web/admin.py,
admin_reports.py, admin_actions.py, admin_forms.py, and games/web/admin/).

    errors        ModerationError, the refusal every service here raises
    guards        permission, the account's lock and who may act on whom, the reason asked for
    mutes         do_mute, do_unmute
    bans          do_ban, do_unban, ending a banned account's sessions
    banned_games  a banned player out of their rooms and games (at the ban, and the sweeper's pass)
    renames       do_rename: a new username everywhere the old one was copied
    coins         do_adjust_coins: the ledger's adjustment, audited
    chat          do_hide_message
    voids         do_void (the round in play), do_void_result (a finished round's standings)
    tournaments   do_cancel_tournament: every buy-in back, its matches in play ended
    reports       do_report_message, do_report_player, do_resolve_report
    news          which reporters have news of their resolved reports (a mark per reporter)
    models        Report (of a message or of a player); the admin's collusion page is a proxy of User
    collusion     the flagged pairs of accounts
    audit         AuditLog (append-only) and `record`
    roles         the Moderator and Admin groups and their permissions
    desk_reads    what the moderator's desk reads: the queue, a report in context, a player's history
"""
