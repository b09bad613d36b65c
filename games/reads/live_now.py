"""The Live now page: public tables in play (Play now's, games.tables), highest-rated first, each with
its rule set, its players and their ratings, and how far along it is; its first is the home page's.

A table's rank is the mean rating of its rated seats (each seat's rating as its round started,
`Seat.rating`, which the leaderboard writes for accounts; computers have none), worked out by the
database in the one query that picks the page's tables; a table with no rated seat comes last, and
among equals the table that started first. How far along: the round, the moves played in it, and
each player's tokens home (from the game row's copy of the state, `Game.state`, no replay).

Everyone sees the same list, so the endpoints keep its render for a few seconds in the shared cache
(games/web/live_now_views.py): the database is asked once per few seconds, whatever the visitors.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, F, Prefetch

from .. import engine
from ..core.narration import colour_name
from ..models import Action, Game, Seat

LIST_SIZE = 30  # tables on the page: the best-rated; the rest are a press of Play now away


@dataclass(frozen=True)
class TablePlayer:
    name: str
    rating: int | None  # None: a computer, or a seat no rating was written for
    colours: list[str]
    colour_names: str
    home: int  # tokens home
    total: int  # tokens in all
    computer: bool  # a computer's seat, or a person's the computer plays for
    to_play: bool


@dataclass(frozen=True)
class LiveTable:
    game_id: str
    ruleset: str
    ruleset_name: str
    seats: int
    timer_seconds: int
    mean_rating: int | None  # how the page ranks it
    round: int
    moves: int  # moves played in this round
    players: list[TablePlayer]

    @property
    def tokens_home(self) -> int:
        return sum(p.home for p in self.players)

    @property
    def tokens(self) -> int:
        return sum(p.total for p in self.players)


def live_tables(limit: int = LIST_SIZE) -> list[LiveTable]:
    """The public tables in play, highest mean rating first (four queries, whatever the number)."""
    # The ranking groups the ids alone (grouping whole rows, state and all, cost more than the rest),
    # then the page's few games are read with their seats.
    ranked = list(
        Game.objects.filter(public=True, status=Game.Status.PLAYING)
        .values("pk", "started")
        .annotate(mean_rating=Avg("seats__rating"))
        .order_by(F("mean_rating").desc(nulls_last=True), "started", "pk")[:limit]
    )
    if not ranked:
        return []
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    found = Game.objects.filter(pk__in=[r["pk"] for r in ranked]).prefetch_related(seats)
    by_id = {g.pk: g for g in found}
    games = [by_id[r["pk"]] for r in ranked if r["pk"] in by_id]
    means = {r["pk"]: r["mean_rating"] for r in ranked}
    rounds = {g.pk: g.round for g in games}
    counted = (
        Action.objects.filter(game_id__in=rounds, kind=Action.Kind.MOVE)
        .values("game_id", "round")
        .annotate(n=Count("pk"))
    )
    moves = {row["game_id"]: row["n"] for row in counted if rounds[row["game_id"]] == row["round"]}
    return [_table(g, moves.get(g.pk, 0), means[g.pk]) for g in games]


def top_table() -> LiveTable | None:
    """The home page's table: the first of the list."""
    found = live_tables(limit=1)
    return found[0] if found else None


def _table(game: Game, moves: int, mean: float | None) -> LiveTable:
    state = game.state or {}
    tokens = state.get("tokens", {})
    order = state.get("players") or game.players
    turn = state.get("turn")
    to_play = order[turn] if isinstance(turn, int) and 0 <= turn < len(order) else []
    players = []
    for seat in game.seats.all():
        positions = [p for c in seat.colours for p in tokens.get(c, [])]
        players.append(
            TablePlayer(
                name=seat.display_name,
                rating=seat.rating,
                colours=list(seat.colours),
                colour_names=" and ".join(colour_name(c) for c in seat.colours),
                home=sum(1 for p in positions if p >= engine.HOME),
                total=len(positions),
                computer=seat.is_bot,
                to_play=bool(to_play) and list(seat.colours) == list(to_play),
            )
        )
    return LiveTable(
        game_id=game.pk,
        ruleset=game.ruleset,
        ruleset_name=game.ruleset_name,
        seats=len(players),
        timer_seconds=game.timer_seconds,
        mean_rating=round(mean) if mean is not None else None,
        round=game.round,
        moves=moves,
        players=players,
    )
