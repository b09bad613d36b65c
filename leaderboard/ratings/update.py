"""A round's ratings, in the round-end transaction (leaderboard.results.record_round calls these).

What is rated (docs/ratings.md): the results that count on the "against people" board, in the rule
set of the round: not void, not capped by the pair's 5 rounds a day, every seat a different account.
A computer never sits at such a table (its round is not against people), so computers are never rated
and never move anyone's rating. Where the 5-a-day rule left only some accounts counted, those are
rated among themselves by their places; one counted account alone is not rated.

Order: `lock_ratings` runs before the round's results are written, so the results' ids (the order
`replay` rates them in) follow the order in which the players' rating rows were taken: two rounds
sharing a player are rated in the order their results were written, and `replay` gives the same.
Before the rows it shares the rule set's lock (`rule_set_lock.rating_in`), which a replay takes alone
only for moments: a round's end never waits on the long part of a replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..models import Rating, Result
from .board_version import ratings_written
from .rule_set_lock import rating_in
from .scale import DEFAULT_MU, DEFAULT_SIGMA, shown
from .skill import Skill, rate_places
from .writes import update_rows


def lock_ratings(user_ids: Iterable[int], ruleset: str) -> dict[int, Rating]:
    """The players' rating rows in `ruleset`, made if missing and locked in ascending id (so rounds
    sharing players take them in one order and never deadlock)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    rating_in(ruleset)
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user_id,
                ruleset=ruleset,
                mu=DEFAULT_MU,
                sigma=DEFAULT_SIGMA,
                value=shown(DEFAULT_MU),
            )
            for user_id in wanted
        ],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(ruleset=ruleset, user_id__in=wanted)
    return {row.user_id: row for row in rows.order_by("pk")}


def rated(results: Iterable[Result]) -> list[Result]:
    """The results of one round that move ratings, first place first ([] if fewer than two)."""
    out = sorted(
        (r for r in results if r.counted and r.against_people and r.user_id is not None),
        key=lambda r: r.place,
    )
    return out if len(out) >= 2 else []


def rate_round(results: Sequence[Result], ratings: dict[int, Rating]) -> None:
    """Move the locked `ratings` by one round's `results` and store on each rated result the rating it
    left and the shown change."""
    players = rated(results)
    if not players:
        return
    held = [ratings[r.user_id] for r in players if r.user_id is not None]  # rated: all accounts
    before = [Skill(rating.mu, rating.sigma) for rating in held]
    for result, rating, old, new in zip(players, held, before, rate_places(before), strict=True):
        result.rating_mu, result.rating_sigma = new.mu, new.sigma
        result.rating_change = new.shown - old.shown
        rating.mu, rating.sigma, rating.value = new.mu, new.sigma, new.shown
        rating.games += 1
        rating.last_played = result.finished_at
    update_rows(
        Result,
        ["rating_mu", "rating_sigma", "rating_change"],
        [(r.pk, r.rating_mu, r.rating_sigma, r.rating_change) for r in players],
    )
    update_rows(
        Rating,
        ["mu", "sigma", "value", "games", "last_played"],
        [(r.pk, r.mu, r.sigma, r.value, r.games, r.last_played) for r in held],
    )
    ratings_written(players[0].ruleset)
