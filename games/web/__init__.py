"""The games' endpoints: what turns a request, a socket frame or an admin action into a call of a
service below, and its answer or refusal into a response. Nothing below imports this package.

    views, urls                   the game page, its actions (htmx POSTs) and records
    pages, pages_urls             read-only pages: rules, replays, fair-dice verification
    staking_views, staking_urls   the staked lobby; quick_waiting_views: quick match's waiting screen
    staking_forms                 the lobby's forms, each with its idempotency key
    tournament_views, tournament_urls, tournament_consumer   the tournaments' pages and bracket socket
    consumers                     the game's WebSocket
    commands                      one registry of player actions for POSTs and socket frames alike
    forms                         the setup screens and every action's parameters
    htmx                          the request type behind django-htmx's middleware
    bench_floor                   bench/live.py's floor: the URLconf and socket routes with LUDOPAT_BENCH_FLOOR=1
    admin/                        games in Django's admin, a module per record (the app's admin.py
                                  re-exports it)
    series_admin                  the scheduled tournament series an admin defines, in the admin
    templatetags/                 the template libraries (the app's templatetags/ re-export them)
"""
