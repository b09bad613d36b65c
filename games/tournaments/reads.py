"""What the tournament pages read (write nothing): the lobby's lists with each tournament's prize
split, a bracket with its matches' players, scores and rooms, a player's tournaments and finishes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Prefetch, QuerySet
from django.utils import timezone

from accounts.ledger import rules as ledger_rules

from .. import engine
from ..models import Action, Game
from .bracket import round_name
from .models import Tournament, TournamentEntry, TournamentMatch
from .rules import place_names, prizes, split_percentages, stalled_minutes


@dataclass(frozen=True)
class Split:
    """The prize split of a full tournament: the pot, the house's cut, each paid place's coins."""

    pot: int
    cut: int
    places: list[tuple[str, str, int]]  # (place, percent, coins)


def split_of(tournament: Tournament) -> Split:
    pot = tournament.buy_in * tournament.size
    cut = ledger_rules.rake_of(pot)
    coins = prizes(tournament.size, pot - cut)
    names, percents = place_names(tournament.size), split_percentages(tournament.size)
    return Split(pot, cut, list(zip(names, percents, coins, strict=True)))


def listed(status: str, limit: int = 50) -> QuerySet[Tournament]:
    order = ["buy_in", "size", "pk"] if status == Tournament.Status.OPEN else ["-pk"]
    return (
        Tournament.objects.filter(status=status)
        .annotate(taken=Count("entries"))
        .order_by(*order)[:limit]
    )


def lobby(user_id: int | None) -> dict[str, object]:
    """The lobby's three lists (registering with their splits, in play, finished lately) and the
    player's own tournament not over yet."""
    registering = list(listed(Tournament.Status.OPEN))
    for tournament in registering:
        tournament.split = split_of(tournament)  # type: ignore[attr-defined]
    mine: set[int] = set()
    if user_id is not None:
        mine = set(
            TournamentEntry.objects.filter(
                user_id=user_id, tournament__status__in=["open", "playing"]
            ).values_list("tournament_id", flat=True)
        )
    return {
        "registering": registering,
        "playing": list(listed(Tournament.Status.PLAYING, 20)),
        "finished": list(listed(Tournament.Status.FINISHED, 20)),
        "mine": mine,
        "rake_percent": ledger_rules.rake_percent(),
    }


@dataclass
class MatchView:
    match: TournamentMatch
    label: str
    players: list[tuple[str, int | None, bool]]  # (name, score, won) of each side; "" if not known
    status: str  # "waiting", "playing", "won", "walkover"
    game_id: str | None
    replay: str = ""


@dataclass
class BracketView:
    tournament: Tournament
    rounds: list[tuple[str, list[MatchView]]] = field(default_factory=list)
    entries: list[TournamentEntry] = field(default_factory=list)
    split: Split | None = None


def _scores(game: Game | None) -> dict[int, int]:
    """{seat index: tokens home} from the room's saved state."""
    if game is None or not game.state:
        return {}
    tokens = game.state.get("tokens", {})
    out = {}
    for index, colours in enumerate(game.players):
        out[index] = sum(1 for c in colours for t in tokens.get(c, []) if t == engine.HOME)
    return out


def bracket(tournament: Tournament) -> BracketView:
    matches = TournamentMatch.objects.filter(tournament=tournament).select_related(
        "first__user", "second__user", "game"
    )
    view = BracketView(tournament, split=split_of(tournament))
    by_round: dict[int, list[MatchView]] = {}
    for match in matches.prefetch_related(Prefetch("game__rounds")):
        scores = _scores(match.game)
        sides = []
        for index, entry in enumerate((match.first, match.second)):
            name = entry.user.username if entry is not None else ""
            won = entry is not None and match.winner_id == entry.pk
            sides.append((name, scores.get(index), won))
        if match.walkover:
            status = "walkover"
        elif match.winner_id:
            status = "won"
        elif match.game_id:
            status = "playing"
        else:
            status = "waiting"
        rounds = list(match.game.rounds.all()) if match.game is not None else []
        replay = rounds[-1].public_id if rounds and match.winner_id else ""
        label = round_name(tournament, match.round).capitalize()
        if match.round < tournament.rounds:  # the final is the only one of its round
            label += f" {match.slot + 1}"
        by_round.setdefault(match.round, []).append(
            MatchView(match, label, sides, status, match.game_id, replay)
        )
    view.rounds = [
        (round_name(tournament, number).capitalize(), by_round[number])
        for number in sorted(by_round)
    ]
    view.entries = list(
        tournament.entries.select_related("user", "tournament").order_by("place", "seed", "joined")
    )
    for entry in view.entries:
        entry.finish = finish_name(entry)  # type: ignore[attr-defined]
    return view


@dataclass(frozen=True)
class MatchLink:
    """What a tournament match's room shows of its tournament: the way back to the bracket."""

    tournament_id: int
    tournament: str
    round: str


def match_link(game: Game) -> MatchLink | None:
    """The tournament this room is a match of, or None (one indexed read, only for a friends room
    without a stake of its own, which is how a tournament's matches are made)."""
    if game.mode != Game.Mode.FRIENDS or game.stake:
        return None
    match = TournamentMatch.objects.filter(game=game).select_related("tournament").first()
    if match is None:
        return None
    return MatchLink(
        match.tournament_id, str(match.tournament), round_name(match.tournament, match.round)
    )


def finishes_of(user_id: int, limit: int = 50) -> list[TournamentEntry]:
    """The player's tournaments, newest first, with their finish and prize (a player page's list)."""
    return list(
        TournamentEntry.objects.filter(user_id=user_id)
        .exclude(tournament__status=Tournament.Status.CANCELLED)
        .select_related("tournament")
        .order_by("-tournament_id")[:limit]
    )


def finish_name(entry: TournamentEntry) -> str:
    """ "1st", "3rd-4th", "still in", "forfeited"... as the player page says it."""
    if entry.place is None:
        return "forfeited" if entry.forfeited else "still in"
    size = entry.tournament.size
    if entry.place == 1:
        return "1st"
    if entry.place == 2:
        return "2nd"
    high = min(entry.place * 2 - 2, size)
    return f"{entry.place}th-{high}th".replace("3th", "3rd")


def stalled(minutes: int | None = None) -> QuerySet[Tournament]:
    """Tournaments in play whose bracket hasn't moved, nor any of its rooms seen an action, for
    `minutes` (rules.stalled_minutes, 10): the admin flags them for a person to look at."""
    since = timezone.now() - timedelta(minutes=minutes or stalled_minutes())
    acted = Action.objects.filter(
        game__tournament_match__tournament=OuterRef("pk"), created__gt=since
    )
    return Tournament.objects.filter(
        status=Tournament.Status.PLAYING, progressed__lt=since
    ).exclude(Exists(acted))
