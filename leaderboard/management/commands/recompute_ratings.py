"""`manage.py recompute_ratings`: rebuild every rule set's ratings from the stored results, from the
first one on (leaderboard.ratings.rating_replay). It is also the backfill at deploy: run once after the
migration that adds ratings, the ratings of every result written before then appear.

`--check` changes nothing: it rebuilds and exits 1 if anything differs from what is stored (for
operators and CI). Either way it runs as the replay task's work does, holding no row a round's end
needs but for a moment at its end: safe on a live site.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import RULESETS
from leaderboard.ratings.rating_replay import ATTEMPTS, Replayed, marker_now, replay


class Command(BaseCommand):
    help = "Rebuild the ratings from the stored results (--check: only say whether they differ)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", choices=[name for name, _ in RULESETS])
        parser.add_argument("--check", action="store_true", help="compare, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        rulesets = [options["ruleset"]] if options["ruleset"] else [n for n, _ in RULESETS]
        differ = []
        for ruleset in rulesets:
            done = rebuild(ruleset, check=options["check"])
            changed = done.results + done.players
            if changed:
                differ.append(ruleset)
            self.stdout.write(
                f"{ruleset}: {done.rounds} rated rounds; {done.results} results and "
                f"{done.players} ratings {'differ' if options['check'] else 'rewritten'}"
            )
        if options["check"] and differ:
            raise CommandError(f"stored ratings differ from the results in: {', '.join(differ)}")


def rebuild(ruleset: str, *, check: bool) -> Replayed:
    """From the start, which is also any pending replay's work (its marker goes)."""
    for _ in range(ATTEMPTS):
        done = replay(ruleset, asked=marker_now(ruleset), write=not check)
        if done is not None:
            return done
    raise CommandError(f"{ruleset}: rounds kept being taken out while it was rebuilt; run it again")
