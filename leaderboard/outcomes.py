"""What a finished round counted for each seat, read from its stored results (leaderboard.results wrote
them when the round ended), never worked out again from the places: the board, the record, the lobby's
staked records and the player pages show these, and say why a round didn't count where it didn't.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from .models import Result

CAPPED = "the pair's 5 rounds a day were used"
NOT_RANKED_COMPUTER = "computers aren't ranked"
NOT_RANKED_GUEST = "guests aren't ranked"
VOID = "the round counts for nobody"
UNRATED = "the table was unrated"  # Game.rated: a challenge played unrated, Play now with computers
UNSCORED = "pass & play isn't ranked"  # a finished round with no results: pass & play


@dataclass(frozen=True)
class Outcome:
    points: int  # what the round added to the standings (0 where it didn't count)
    not_counted: str = ""  # why it didn't count, "" where it did
    rating_change: int | None = None  # the rating's change (+12), None where the round wasn't rated


def why_not_counted(result: Result, rated: bool = True) -> str:
    """Why `result` added nothing to the standings ("" if it counted), in words for a player;
    `rated`: its room's (Game.rated)."""
    if result.counted:
        return ""
    if result.void:
        return VOID
    if result.is_computer:
        return NOT_RANKED_COMPUTER
    if result.user_id is None:
        return NOT_RANKED_GUEST
    if not rated:
        return UNRATED
    return CAPPED  # an account's ranked round that didn't count: the pair's day was full


def outcome_of(result: Result, rated: bool = True) -> Outcome:
    return Outcome(result.points, why_not_counted(result, rated), result.rating_change)


def round_outcomes(game_id: str, number: int) -> dict[int, Outcome]:
    """{seat index: Outcome} of the game's round `number`, from its stored results ({} if it has
    none: a round not over, or pass & play)."""
    rows = Result.objects.filter(round__game_id=game_id, round__number=number).annotate(
        room_rated=F("round__game__rated")
    )
    return {row.seat_index: outcome_of(row, row.room_rated) for row in rows}
