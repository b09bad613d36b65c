"""Accounts' endpoints: sign-up, log-in and profiles, the wallet, the moderator's desk, the admin's
pages and actions, the online count's socket. Nothing below imports this package.

    views, urls, forms, profile_urls   sign-up, log-in, a player's page, reporting a player
    two_factor_views                   log-in's second factor, its setup and recovery codes
    welcome                            what a new account reads on its first page
    logged_in                          the account of a request a view has let in, typed
    middleware                         the browser's own id (a cookie); banned accounts' sessions end
    log_ins                            what a log-in leaves behind: its address, session and browser
    wallet_views                       the wallet page and the daily top-up
    desk_views, desk_urls, desk_forms  the moderator's desk
    admin, admin_reports               players, the audit log, collusion flags, the reports queue
    admin_site                         the admin site, which asks staff for a second factor
    admin_actions, admin_forms         admin actions that ask for a reason first, made in one place
    ledger_admin                       the ledger's rows, read-only
    report_news                        a reporter told what the moderators decided (middleware)
    consumers                          the online count's socket
    templatetags/                      the template libraries (the app's templatetags/ re-export them)
"""
