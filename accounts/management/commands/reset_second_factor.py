"""`manage.py reset_second_factor NAME`: remove an account's authenticator app and recovery codes.

For a member of staff (or a player) who lost their phone and their recovery codes. Check who is asking
first, by another channel than the account's email (whoever stole the password may read it too): the
next log-in asks for the password only, and staff then set up a new app before the desk opens again.
Every session the old devices verified is unverified at its next request.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.users.two_factor import do_reset


class Command(BaseCommand):
    help = "Remove an account's second factor (authenticator app and recovery codes)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        user = get_user_model()._default_manager.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no account named {username!r}.")
        removed = do_reset(user)
        if not removed:
            self.stdout.write(f"{username} had no second factor: nothing to reset.")
            return
        self.stdout.write(
            f"{username}'s second factor is removed: their next log-in asks for the password only"
            + (", then the desk asks them to set up a new app." if user.is_staff else ".")
        )
