"""Accounts' endpoints: sign-up, log-in and profiles, the wallet, the moderator's desk, the admin's
pages and actions, the online count's socket. Nothing below imports this package.

    views, urls, forms, profile_urls   sign-up, log-in, a player's page, reporting a player
    wallet_views                       the wallet page and the daily top-up
    desk_views, desk_urls, desk_forms  the moderator's desk
    admin, admin_reports               players, the audit log, collusion flags, the reports queue
    admin_actions, admin_forms         admin actions that ask for a reason first, made in one place
    ledger_admin                       the ledger's rows, read-only
    report_news                        a reporter told what the moderators decided (middleware)
    consumers                          the online count's socket
    templatetags/                      the template libraries (the app's templatetags/ re-export them)
"""
