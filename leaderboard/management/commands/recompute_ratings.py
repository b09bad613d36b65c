"""`manage.py recompute_ratings`: rebuild every rule set's ratings from the stored results, from the
first one on (leaderboard.ratings.replay). It is also the backfill at deploy: run once after the
migration that adds ratings, the ratings of every result written before then appear.

`--check` changes nothing: it rebuilds in a transaction that is rolled back, and exits 1 if anything
differs from what is stored (for operators and CI).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.models import RULESETS
from leaderboard.models import RatingReplay
from leaderboard.ratings.replay import replay


class Command(BaseCommand):
    help = "Rebuild the ratings from the stored results (--check: only say whether they differ)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", choices=[name for name, _ in RULESETS])
        parser.add_argument("--check", action="store_true", help="compare, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        rulesets = [options["ruleset"]] if options["ruleset"] else [n for n, _ in RULESETS]
        differ = []
        for ruleset in rulesets:
            with transaction.atomic():
                done = replay(ruleset)
                if options["check"]:
                    transaction.set_rollback(True)
                else:
                    RatingReplay.objects.filter(ruleset=ruleset).delete()  # done from the start
            changed = done.results + done.players
            if changed:
                differ.append(ruleset)
            self.stdout.write(
                f"{ruleset}: {done.rounds} rated rounds; {done.results} results and "
                f"{done.players} ratings {'differ' if options['check'] else 'rewritten'}"
            )
        if options["check"] and differ:
            raise CommandError(f"stored ratings differ from the results in: {', '.join(differ)}")
