"""The read replica test's steps that need Django on the test's own primary and replica
(`python -m tests.integration.replica_steps STEP [ARG]`, with DATABASE_URL and DATABASE_REPLICA_URL
pointing at them; pytest-django's connection in the test process is on the test database instead).
Each step prints one line of JSON for the test to check.

setup        the migrated database, an account alice with her game against the computer, started,
             and a logged-in session cookie of hers
finish ID    alice resigns game ID (as a timer's task or a socket would end it: in another process
             than her browser's requests): the public replay id of the finished round, and which
             connection the router picks inside a replica-reading page, outside one and for what
             such a page keeps for later pages (the rating board), with what it says of
             `pg_is_in_recovery()`
"""

from __future__ import annotations

import json
import sys

import django


def setup() -> dict:
    from django.core.management import call_command
    from django.test import Client

    from tests.factories import computer_game, make_user, member

    call_command("migrate", interactive=False, verbosity=0)  # the primary's (the router's rule)
    alice = make_user("alice")
    game = computer_game(member(alice))
    client = Client()
    client.force_login(alice)
    return {"game": game.pk, "session": client.cookies["sessionid"].value}


def finish(game_id: str) -> dict:
    from django.contrib.auth import get_user_model

    from games.actions import do_resign
    from games.models import Round
    from tests.factories import member

    alice = get_user_model().objects.get(username="alice")
    do_resign(game_id, member(alice))
    return {"public_id": Round.objects.get(game_id=game_id).public_id, **routed()}


def routed() -> dict:
    from django.db import connections, router

    from leaderboard.models import Standing
    from ludopat.read_replica import reading_primary, reading_replica

    def in_recovery() -> tuple[str, bool]:
        alias = router.db_for_read(Standing)
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT pg_is_in_recovery()")
            return alias, cursor.fetchone()[0]

    outside = in_recovery()
    with reading_replica():
        inside = in_recovery()
        with reading_primary():  # what a replica-reading page works out for every later page
            kept = in_recovery()
    return {"inside": inside, "outside": outside, "kept": kept}


if __name__ == "__main__":
    django.setup()
    step, *args = sys.argv[1:]
    print(json.dumps({"setup": setup, "finish": finish}[step](*args)))
