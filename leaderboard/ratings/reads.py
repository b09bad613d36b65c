"""What pages and quick match read of the ratings: the shown number, provisional or not, and games;
the rule set an account plays most."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..models import Rating
from .scale import DEFAULT_SHOWN, is_provisional


@dataclass(frozen=True)
class ShownRating:
    value: int  # the shown number, 1500 + 60*(mu - 25) rounded
    provisional: bool  # sigma above scale.PROVISIONAL_SIGMA
    games: int


DEFAULT_RATING = ShownRating(DEFAULT_SHOWN, provisional=True, games=0)


def shown_rating(rating: Rating) -> ShownRating:
    return ShownRating(rating.value, is_provisional(rating.sigma), rating.games)


def shown_ratings(user_ids: Iterable[int], ruleset: str) -> dict[int, ShownRating]:
    """Every asked user gets an entry; a user with no rating row gets the default (provisional)."""
    wanted = set(user_ids)
    found = {
        row.user_id: shown_rating(row)
        for row in Rating.objects.filter(ruleset=ruleset, user_id__in=wanted).only(
            "user_id", "value", "sigma", "games"
        )
    }
    return {user_id: found.get(user_id, DEFAULT_RATING) for user_id in wanted}


def most_rated_ruleset(user_id: int) -> str | None:
    """The rule set the account has the most rated rounds in (of a tie, the first by name), None for
    an account never rated: the rating board opens on it. One read of the account's few rows."""
    rows = Rating.objects.filter(user_id=user_id, games__gt=0).order_by("-games", "ruleset")
    return rows.values_list("ruleset", flat=True).first()
