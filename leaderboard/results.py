"""Results of finished rounds, written once, and the standings they add to (docs/rules.md).

`record_round` is a round-end handler (leaderboard/apps.py registers `record_ended_round`, see
games.core.round_ends): `games.actions.rounds.finish_round` calls it in the transaction of the
action that ends a round, after the settlement of a staked game. It writes one `Result` per seat and adds
the counted ones to the `Standing` sums in the same transaction, so the leaderboard never replays
history. `write_rounds` is the one writer: it takes a batch of rounds so the backfill and the benchmark
write through exactly the same code. Its parts, one job a module: the 5-a-day rule (daily_limit), the
players' histories (histories), the standings' sums (standing_sums), the upsert they share (upsert);
taking a round out again is round_removal.

What counts: only accounts are ranked, computers take places; pass & play never counts; "agreed",
"idle" and "void" rounds count for nobody, nor do the rounds of an unrated room (`Game.rated`: written,
counted on no board, rated for nobody); between the same two accounts at most 5 rounds a UTC day
count. The results that count on the "against people" board also move their players' ratings
(leaderboard.ratings.update), in the same transaction.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.core.public_rounds import keep_round
from games.core.round_ends import RANKED, UNRANKED, EndedRound, RoundEnd
from games.models import Game, Round, Seat
from ludopat.recent_writes import note_round_for

from .daily_limit import apply_daily_limit
from .finished_rounds import FinishedRound, SeatFacts
from .histories import add_to_place_tallies, number_results, renumber_results
from .models import PairDay, Result, Standing
from .points import points_for
from .ratings.update import lock_ratings, rate_round
from .standing_sums import add_to_standings


def record_ended_round(ended: EndedRound) -> None:
    """The leaderboard's round-end handler: the round's results, with the coins its settlement paid."""
    record_round(ended.game, ended.seats, ended.places, ended.how, ended.coins)


def record_round(
    game: Game,
    seats: list[Seat],
    places: list[int],
    how: RoundEnd,
    coins: dict[int, int] | None = None,
) -> Round | None:
    """Write the results of the game's round that just ended; returns the kept `Round` (with its public
    replay id), or None for a room closed before it started."""
    if how not in RANKED | UNRANKED:
        raise ValueError(f"unknown way for a round to end: {how}")
    if how == RoundEnd.CANCEL:
        return None
    kept = keep_round(game, seats, places, how=how)
    # Its players read the primary until the read replica has this round (ludopat/recent_writes.py).
    note_round_for(user_ids=[s.user_id for s in seats if s.user_id is not None])
    if game.mode == Game.Mode.LOCAL or not places:
        return kept  # pass & play never counts; a round without places has nobody to score
    facts = [
        SeatFacts(s.index, s.user_id, s.display_name, s.kind == Seat.Kind.COMPUTER)
        for s in seats
        if s.index in places
    ]
    played = FinishedRound(
        kept.pk,
        game.ruleset,
        facts,
        list(places),
        how,
        timezone.now(),
        dict(coins or {}),
        rated=game.rated,
    )
    record_played(played)
    return kept


def record_played(played: FinishedRound) -> list[Result]:
    """Write one round that just ended: its results, the standings and the ratings it moves."""
    # The rating rows first: the results written after them are the order ratings are replayed in.
    ratings = lock_ratings(played.accounts.values(), played.ruleset) if played.rateable else {}
    rows = write_rounds([played])
    if ratings:
        rate_round(rows, ratings)
    return rows


def write_rounds(
    rounds: list[FinishedRound], tables: tuple[type[Any], ...] | None = None
) -> list[Result]:
    """Write the results of `rounds` (oldest first) and add them to the standings.

    `tables` = (Result, Standing, PairDay) lets the data migration pass its historical models (so Any);
    those predate the players' histories, so their results are written unnumbered and without place
    tallies (the migration that added them numbers and tallies whatever results exist).

    Locks, after the pair tallies: the players' `PlayerHistory` rows (ascending user id), then their
    `PlaceTally` rows, then the standings, each in key order (`remove_round` takes the same order).
    """
    result_model, standing_model, pair_model = tables or (Result, Standing, PairDay)
    with_history = tables is None
    rounds = sorted(rounds, key=lambda r: r.when)
    counted = apply_daily_limit(rounds, pair_model)
    rows: list[Result] = []
    for n, played in enumerate(rounds):
        void = played.how in UNRANKED
        seats = {s.index: s for s in played.seats}
        for place, index in enumerate(played.places, start=1):
            seat = seats[index]
            counts = played.rated and not void and seat.user_id is not None and index in counted[n]
            rows.append(
                result_model(
                    round_id=played.round_id,
                    seat_index=index,
                    user_id=seat.user_id,
                    name=seat.name[:150],
                    is_computer=seat.is_computer,
                    place=place,
                    players=len(played.places),
                    points=points_for(place, len(played.places)) if counts else 0,
                    ruleset=played.ruleset,
                    against_people=played.against_people,
                    coins=played.coins.get(index, 0),
                    how=played.how,
                    void=void,
                    counted=counts,
                    finished_at=played.when,
                )
            )
    late = number_results(rows) if with_history else set()
    result_model.objects.bulk_create(rows)
    if late:
        renumber_results(result_model, sorted(late))
    if with_history:
        add_to_place_tallies([r for r in rows if r.counted])
    add_to_standings([r for r in rows if r.counted], standing_model)
    return rows
