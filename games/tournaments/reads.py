"""What the tournament pages read (write nothing): the lobby's lists with each tournament's prize
split, a bracket with its matches' players, scores and rooms, a player's tournaments and finishes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.ledger import rules as ledger_rules

from ..models import Action, Game
from .bracket import round_name
from .models import Tournament, TournamentEntry, TournamentMatch
from .rules import place_names, prizes, split_percentages, stalled_minutes
from .scores import tokens_home
from .series import upcoming_series, usual_minutes


@dataclass(frozen=True)
class Share:
    """One paid finish: "3rd-4th", its percent and coins for each of the `count` players sharing it."""

    place: str
    percent: str
    coins: int
    count: int = 1


@dataclass(frozen=True)
class Split:
    """The prize split of a full tournament: the pot, the house's cut, each paid place's coins."""

    pot: int
    cut: int
    places: list[tuple[str, str, int]]  # (place, percent, coins), one per paid player

    @property
    def shares(self) -> list[Share]:
        """The places grouped by finish: 3rd and 4th share "3rd-4th: 90 each"."""
        out: list[Share] = []
        for name, percent, coins in self.places:
            if out and out[-1].place == name:
                out[-1] = Share(name, percent, coins, out[-1].count + 1)
            else:
                out.append(Share(name, percent, coins))
        return out


def split_for(size: int, buy_in: int) -> Split:
    pot = buy_in * size
    cut = ledger_rules.rake_of(pot)
    coins = prizes(size, pot - cut)
    names, percents = place_names(size), split_percentages(size)
    return Split(pot, cut, list(zip(names, percents, coins, strict=True)))


def split_of(tournament: Tournament) -> Split:
    return split_for(tournament.size, tournament.buy_in)


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
    registering = list(listed(Tournament.Status.OPEN).select_related("series"))
    for tournament in registering:
        tournament.split = split_of(tournament)  # type: ignore[attr-defined]
    # Scheduled ones (a series' instances, an admin's one-offs) are listed apart, soonest first.
    scheduled = sorted(
        (t for t in registering if t.scheduled_for is not None),
        key=lambda t: t.scheduled_for,  # type: ignore[arg-type, return-value]
    )
    registering = [t for t in registering if t.scheduled_for is None]
    usual = {size: usual_minutes(size) for size in {t.size for t in scheduled}}
    for tournament in scheduled:
        tournament.usual = usual[tournament.size]  # type: ignore[attr-defined]
    not_yet = [
        {"series": series, "slot": slot, "usual": usual_minutes(series.size)}
        for series, slot in upcoming_series()
    ]
    mine: set[int] = set()
    if user_id is not None:
        mine = set(
            TournamentEntry.objects.filter(
                user_id=user_id, tournament__status__in=["open", "playing"]
            ).values_list("tournament_id", flat=True)
        )
    finished = list(listed(Tournament.Status.FINISHED, 20))
    winners = dict(
        TournamentEntry.objects.filter(tournament__in=finished, place=1).values_list(
            "tournament_id", "user__username"
        )
    )
    for tournament in finished:
        tournament.winner = winners.get(tournament.pk, "")  # type: ignore[attr-defined]
        tournament.pot = tournament.buy_in * tournament.taken  # type: ignore[attr-defined]
    return {
        "registering": registering,
        "scheduled": scheduled,
        "series_next": not_yet,
        "playing": list(listed(Tournament.Status.PLAYING, 20)),
        "finished": finished,
        "mine": mine,
        "rake_percent": ledger_rules.rake_percent(),
    }


@dataclass(frozen=True)
class HomeCard:
    """The home page's Tournaments card: how many register and play now, and the cheapest one to join."""

    registering: int
    playing: int
    next_one: Tournament | None


def home_card() -> HomeCard:
    counts = dict(
        Tournament.objects.filter(status__in=[Tournament.Status.OPEN, Tournament.Status.PLAYING])
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    next_one = listed(Tournament.Status.OPEN, 1).first()
    return HomeCard(
        counts.get(Tournament.Status.OPEN, 0), counts.get(Tournament.Status.PLAYING, 0), next_one
    )


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
    # Once it is over: (finish, name, prize) of 1st to 3rd, and the final's replay.
    podium: list[tuple[str, str, int]] = field(default_factory=list)
    final_replay: str = ""


def _scores(game: Game | None) -> dict[int, int]:
    """{seat index: tokens home} from the room's saved state."""
    if game is None or not game.state:
        return {}
    return dict(enumerate(tokens_home(game.players, game.state.get("tokens", {}))))


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
    if tournament.status == Tournament.Status.FINISHED:
        view.podium = [
            (e.finish, e.user.username, e.prize)  # type: ignore[attr-defined]
            for e in view.entries
            if e.place is not None and e.place <= 3
        ]
        final = view.rounds[-1][1][0] if view.rounds else None
        view.final_replay = final.replay if final is not None else ""
    return view


@dataclass(frozen=True)
class MyPart:
    """The viewer's own part of a bracket page (never part of the bracket, which is one render for
    every viewer): their match to play, or where they stand."""

    state: str  # "registered", "playing", "waiting", "out", "forfeited", "finished"
    entry: TournamentEntry
    finish: str = ""
    opponent: str = ""
    round: str = ""
    game_id: str = ""
    prize: int = 0


def my_part(tournament: Tournament, user_id: int | None) -> MyPart | None:
    """What the viewer's own part says, or None for someone not in the tournament (two small reads)."""
    if user_id is None:
        return None
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, user_id=user_id)
        .select_related("tournament")
        .first()
    )
    if entry is None:
        return None
    finish = finish_name(entry)
    if tournament.status == Tournament.Status.OPEN:
        return MyPart("registered", entry)
    if tournament.status != Tournament.Status.PLAYING:
        return MyPart("finished", entry, finish, prize=entry.prize)
    if entry.forfeited:
        return MyPart("forfeited", entry, finish)
    if entry.place is not None:
        return MyPart("out", entry, finish, prize=_share_of(tournament, entry.place))
    match = (
        TournamentMatch.objects.filter(tournament=tournament, winner__isnull=True)
        .filter(Q(first=entry) | Q(second=entry))
        .select_related("first__user", "second__user", "game")
        .order_by("round")
        .first()
    )
    if match is None:
        return MyPart("waiting", entry)
    other = match.second if match.first_id == entry.pk else match.first
    opponent = other.user.username if other is not None else ""
    name = round_name(tournament, match.round)
    if match.game is not None and match.game.status == Game.Status.PLAYING:
        return MyPart("playing", entry, opponent=opponent, round=name, game_id=match.game.pk)
    return MyPart("waiting", entry, opponent=opponent, round=name)


def _share_of(tournament: Tournament, place: int) -> int:
    coins = split_of(tournament).places
    return coins[place - 1][2] if 0 < place <= len(coins) else 0


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
        match.tournament_id,
        f"Tournament #{match.tournament_id}",
        round_name(match.tournament, match.round),
    )


def of_pools(pool_ids: Iterable[int]) -> dict[int, tuple[int, int | None]]:
    """{pool id: (tournament id, its winner's user id or None)}: what a wallet line moving coins in or
    out of a tournament's pool links to, and whose prize line mentions the house's cut."""
    rows = Tournament.objects.filter(pool_id__in=set(pool_ids)).values_list("pk", "pool_id")
    by_pool = {pool: pk for pk, pool in rows}
    winners = dict(
        TournamentEntry.objects.filter(tournament_id__in=by_pool.values(), place=1).values_list(
            "tournament_id", "user_id"
        )
    )
    return {pool: (pk, winners.get(pk)) for pool, pk in by_pool.items()}


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
