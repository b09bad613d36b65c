"""A game's record (docs/record.md): replayable as it is, with names, created, result and fair."""

from __future__ import annotations

from typing import Any

from leaderboard.outcomes import UNSCORED, Outcome, round_outcomes

from ..engine.record_format import FORMAT
from ..models import Action, Game, Round, Seat


def record_for(game: Game, round_number: int | None = None) -> dict[str, Any]:
    """The record of the game's current round (or of an earlier `round_number`).

    `fair.server_seed` is present only once that round is over; `result` once it has places.
    """
    seats = list(game.seats.select_related("user").order_by("index"))
    number = game.round if round_number is None else round_number
    past = None if number == game.round else Round.objects.get(game=game, number=number)
    players = past.players if past else game.players
    by_colours = {tuple(s.colours): s for s in seats}
    rows = Action.objects.filter(
        game=game, round=number, kind__in=[Action.Kind.ROLL, Action.Kind.MOVE]
    ).order_by("seq")
    actions = list(rows.values_list("data", flat=True))
    record: dict[str, Any] = {
        "format": FORMAT,
        "id": game.pk,
        "ruleset": game.ruleset,
        "options": dict(game.options or {}),
        "players": [list(p) for p in players],
        "names": [_name(by_colours.get(tuple(p))) for p in players],
        "created": game.created.isoformat(),
        "round": number,
        "actions": actions,
    }
    if past:
        fair = {
            "server_seed_sha256": _sha(past.server_seed),
            "client_seed": past.client_seed,
            "server_seed": past.server_seed,
        }
        places = past.places
    else:
        fair = {
            "server_seed_sha256": game.server_seed_sha256,
            "client_seed": game.client_seed or _joined(seats),
        }
        if game.is_over:
            fair["server_seed"] = game.server_seed
        places = game.result_places if game.status == Game.Status.FINISHED else []
    record["fair"] = fair
    kept = past or (
        Round.objects.filter(game=game, number=number).first() if game.is_over else None
    )
    how = kept.how if kept is not None else ""
    if places:
        by_index = {s.index: s for s in seats}
        # Points as the standings counted them (the stored results), and why not where they didn't.
        outcomes = round_outcomes(game.pk, number)
        record["result"] = {
            "places": [
                {
                    "place": n + 1,
                    "name": _name(by_index[i]),
                    "colours": list(by_index[i].colours),
                    "player": _player_index(players, by_index[i].colours),
                    **_points(outcomes.get(i, Outcome(0, UNSCORED))),
                }
                for n, i in enumerate(places)
            ],
            "status": "finished",
        }
    elif (game.status == Game.Status.ABANDONED and not past) or how:
        record["result"] = {"status": "abandoned", "places": []}
    if how and "result" in record:
        # The moves can't tell a resignation: how the round ended, and who gave it up.
        record["result"]["how"] = how
        record["result"]["gave_up"] = _gave_up(game, number, seats, players)
    return record


def _points(outcome: Outcome) -> dict[str, Any]:
    if outcome.not_counted:
        return {"points": outcome.points, "not_counted": outcome.not_counted}
    return {"points": outcome.points}


def _gave_up(game: Game, number: int, seats: list[Seat], players: list[list[str]]) -> list[int]:
    """The players (indexes into `players`) who resigned or left during round `number`."""
    by_id = {s.pk: s for s in seats}
    quitters = Action.objects.filter(
        game=game, round=number, kind=Action.Kind.RESIGN, seat__isnull=False
    ).values_list("seat_id", flat=True)
    found = []
    for seat_id in quitters.order_by("seq"):
        player = _player_index(players, by_id[seat_id].colours) if seat_id in by_id else None
        if player is not None and player not in found:
            found.append(player)
    return found


def _player_index(players: list[list[str]], colours: list[str]) -> int | None:
    for i, p in enumerate(players):
        if list(p) == list(colours):
            return i
    return None


def _name(seat: Seat | None) -> str:
    return seat.display_name if seat else ""


def _joined(seats: list[Seat]) -> str:
    return "|".join(s.client_seed for s in seats)


def _sha(seed: str) -> str:
    from ..engine.fair import commitment

    return commitment(seed)


def public_record(kept: Round) -> dict[str, Any]:
    """The kept round's record under its public id, in place of the room's id."""
    game = kept.game
    record = record_for(game) if kept.number == game.round else record_for(game, kept.number)
    record["id"] = kept.public_id
    return record
