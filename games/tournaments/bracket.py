"""The bracket: seeding the players, opening a match's room, deciding a match, seating its winner in
the next round, and the prizes when the final is decided.

Everything here runs inside a transaction that holds the tournament's row lock. Lock order
(games/actions/core.py): accounts, games, then the tournament row, then wallets and pools. A match
decided by its room's round end (handlers.py) holds that room's lock first; the rooms opened here are
new, so nobody else can be waiting for them.
"""

from __future__ import annotations

import random

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.ledger import pools
from accounts.ledger import rules as ledger_rules
from accounts.ledger.history import balance_of

from ..actions.setup import SeatSpec, TimerSpec, create_game, start_round
from ..actions.state import seats_in
from ..core.actors import Actor
from ..core.errors import GameNotFound
from ..core.round_ends import UNRANKED, RoundEnd
from ..models import Game, Round, Seat
from . import live
from .models import Tournament, TournamentEntry, TournamentMatch
from .rules import place_after_losing, prizes

MATCH_PAUSES = 1  # each player's pauses per match: a bracket waits for every match
MATCH_PAUSE_SECONDS = 30


def lock_tournament(tournament_id: object) -> Tournament:
    """The tournament's row, locked until the transaction ends: one change to a bracket at a time."""
    if type(tournament_id) is not int:
        raise GameNotFound("There is no such tournament.")
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise GameNotFound("There is no such tournament.")
    return found


def bracket_url(tournament: Tournament) -> str:
    return reverse("tournament", args=[tournament.pk])


def changed(tournament: Tournament) -> None:
    """The bracket moved: a new version, saved, and every open bracket page told on commit."""
    tournament.version += 1
    tournament.progressed = timezone.now()
    tournament.save()
    live.bracket_changed_on_commit(tournament.pk, tournament.version)


# --- the start ---------------------------------------------------------------------------------------


def seat_players(tournament: Tournament, entries: list[TournamentEntry]) -> None:
    """Draw the bracket (a random seeding), write every match of every round, and open the first
    round's rooms."""
    order = list(entries)
    random.SystemRandom().shuffle(order)
    for seed, entry in enumerate(order):
        entry.seed = seed
        entry.save(update_fields=["seed"])
    matches = []
    for round_ in range(1, tournament.rounds + 1):
        for slot in range(tournament.size >> round_):
            match = TournamentMatch(tournament=tournament, round=round_, slot=slot)
            if round_ == 1:
                match.first, match.second = order[2 * slot], order[2 * slot + 1]
            matches.append(match)
    TournamentMatch.objects.bulk_create(matches)
    for match in TournamentMatch.objects.filter(tournament=tournament, round=1).select_related(
        "first__user", "second__user"
    ):
        open_match(tournament, match)


# --- a match -------------------------------------------------------------------------------------------


def _out(entry: TournamentEntry) -> bool:
    """A player who can't play on: left after the start, or banned (which forfeits every match)."""
    if entry.forfeited:
        return True
    if entry.user.is_banned:
        entry.forfeited = True
        entry.save(update_fields=["forfeited"])
        return True
    return False


def open_match(tournament: Tournament, match: TournamentMatch) -> None:
    """Both players known: open the match's timed room and start it (or, if a player forfeited,
    decide it without play)."""
    first, second = match.first, match.second
    assert first is not None and second is not None  # noqa: S101  (both feeders decided)
    out = [entry for entry in (first, second) if _out(entry)]
    if out:
        winner = second if first in out and second not in out else first
        decide(tournament, match, winner, walkover=True)
        return
    game = create_game(
        Actor(first.user_id, ""),
        Game.Mode.FRIENDS,
        tournament.ruleset,
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.HUMAN)],
        TimerSpec(tournament.timer_seconds, MATCH_PAUSES, MATCH_PAUSE_SECONDS),
    )
    game.in_tournament = True
    game.save(update_fields=["in_tournament"])
    seats = seats_in(game)
    seats[1].user_id, seats[1].player_key = second.user_id, ""
    seats[1].save(update_fields=["user", "player_key"])
    start_round(game, seats)
    match.game = game
    match.save(update_fields=["game"])
    changed(tournament)
    names = {first.user_id: second.user.username, second.user_id: first.user.username}
    link = game.get_absolute_url()
    for user_id, opponent in names.items():
        live.tell_on_commit(
            [user_id],
            f"Your {round_name(tournament, match.round)} match against {opponent} has started.",
            link,
            "Play your match",
            tournament_id=tournament.pk,
        )


def round_name(tournament: Tournament, round_: int) -> str:
    left = tournament.rounds - round_
    return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(left, f"round {round_}")


def match_ended(game: Game, seats: list[Seat], places: list[int], how: RoundEnd) -> None:
    """A tournament room's round ended (the round-end handler, holding the room's lock): decide its
    match, or, if the round ended for nobody (a moderator's void), play the match again."""
    match = (
        TournamentMatch.objects.filter(game_id=game.pk)
        .select_related("first__user", "second__user")
        .first()
    )
    if match is None or match.winner_id is not None:
        return
    tournament = lock_tournament(match.tournament_id)
    if tournament.status != Tournament.Status.PLAYING:
        return  # cancelled: its buy-ins went back; the room just ends
    first, second = match.first, match.second
    if first is None or second is None:  # a room opens only once both players are known
        return
    by_user = {first.user_id: first, second.user_id: second}
    winner_seat = next((seat for seat in seats if places and seat.index == places[0]), None)
    if how in UNRANKED or winner_seat is None or winner_seat.user_id not in by_user:
        open_match(tournament, match)  # every match has a winner: this one is played again
        return
    decide(tournament, match, by_user[winner_seat.user_id])


def decide(
    tournament: Tournament, match: TournamentMatch, winner: TournamentEntry, walkover: bool = False
) -> None:
    """`winner` won `match`: the loser's place is set; the winner is seated in the next round's match
    (which opens once both its players are known) or, after the final, the prizes are paid. The
    loser is told at once where they finish and who plays on."""
    match.winner, match.walkover, match.finished = winner, walkover, timezone.now()
    match.save(update_fields=["winner", "walkover", "finished"])
    loser = match.second if winner == match.first else match.first
    if loser is not None:
        loser.place = place_after_losing(tournament.size, match.round)
        loser.save(update_fields=["place"])
    if match.round == tournament.rounds:
        winner.place = 1
        winner.save(update_fields=["place"])
        _pay_prizes(tournament, match)
        changed(tournament)
        return
    parent = TournamentMatch.objects.select_related("first__user", "second__user").get(
        tournament=tournament, round=match.round + 1, slot=match.slot // 2
    )
    if match.slot % 2 == 0:
        parent.first = winner
    else:
        parent.second = winner
    parent.save(update_fields=["first", "second"])
    if parent.first_id is not None and parent.second_id is not None:
        open_match(tournament, parent)
    else:
        changed(tournament)
        live.tell_on_commit(
            [winner.user_id],
            f"You won your {round_name(tournament, match.round)}. Your "
            f"{round_name(tournament, parent.round)} starts when its other match ends.",
            bracket_url(tournament),
            "See the bracket",
            tournament_id=tournament.pk,
        )
    if loser is not None and not loser.forfeited:
        _tell_knocked_out(tournament, match, loser, winner, parent)


def _tell_knocked_out(
    tournament: Tournament,
    match: TournamentMatch,
    loser: TournamentEntry,
    winner: TournamentEntry,
    parent: TournamentMatch,
) -> None:
    """The loser of a match before the final hears at once where they finish, what it pays (once the
    final is decided), who plays on, and where to watch them."""
    place = loser.place or 0
    share = expected_prize(tournament, place)
    paid = (
        f"You win {share:,} coins, paid when the final ends."
        if share
        else "Your place pays no prize."
    )
    watch = parent.game.get_absolute_url() if parent.game is not None else bracket_url(tournament)
    live.tell_on_commit(
        [loser.user_id],
        f"You are out of tournament #{tournament.pk}: {winner.user.username} beat you in the "
        f"{round_name(tournament, match.round)}, and you finish {finish_of(tournament.size, place)}."
        f" {paid} {winner.user.username} plays on in the {round_name(tournament, parent.round)}.",
        watch,
        "Watch them play" if parent.game is not None else "Watch the bracket",
        tournament_id=tournament.pk,
    )


def expected_prize(tournament: Tournament, place: int) -> int:
    """What the share of `place` pays out of a full pot (the prizes paid at the end may differ only if
    a banned player's share moves)."""
    pot = tournament.buy_in * tournament.size
    shares = prizes(tournament.size, pot - ledger_rules.rake_of(pot))
    return shares[place - 1] if 0 < place <= len(shares) else 0


def finish_of(size: int, place: int) -> str:
    """ "1st", "2nd", "3rd-4th", "5th-8th"... the finish a place shares."""
    if place in (1, 2):
        return ("1st", "2nd")[place - 1]
    return f"{place}th-{min(place * 2 - 2, size)}th".replace("3th", "3rd")


# --- the prizes --------------------------------------------------------------------------------------


def _pay_prizes(tournament: Tournament, final: TournamentMatch) -> None:
    """The final is decided: the house's cut of the pot once, and each paid place its share of the
    rest, in one closing transaction of the pool. A banned player's share goes to the best-placed
    player who isn't banned (their buy-in stays in the pot). Everyone in it gets the podium."""
    pool = tournament.pool
    pot = type(pool).objects.get(pk=pool.pk).balance
    net = pot - ledger_rules.rake_of(pot)
    shares = prizes(tournament.size, net)
    ranked = list(
        tournament.entries.filter(place__isnull=False)
        .select_related("user")
        .order_by("place", "seed")[: len(shares)]
    )
    paid = {entry.pk: share for entry, share in zip(ranked, shares, strict=False)}
    eligible = [entry for entry in ranked if not entry.user.is_banned]
    if eligible:
        for entry in ranked:
            if entry not in eligible:
                paid[eligible[0].pk] += paid.pop(entry.pk)
    by_user: dict[int, int] = {}
    for entry in ranked:
        entry.prize = paid.get(entry.pk, 0)
        entry.save(update_fields=["prize"])
        if entry.prize:
            by_user[entry.user_id] = entry.prize
    pools.pay_prizes(pool, by_user, f"Tournament #{tournament.pk} prize")
    tournament.status = Tournament.Status.FINISHED
    tournament.finished = timezone.now()
    _tell_podium(tournament, final)


def _tell_podium(tournament: Tournament, final: TournamentMatch) -> None:
    """Every player of the tournament gets the podium (1st to 3rd with their prizes), their own
    finish, and the final's replay; a prize's notice carries the new balance for the navigation."""
    entries = list(tournament.entries.select_related("user").order_by("place", "seed"))
    podium = [
        (finish_of(tournament.size, e.place), e.user.username, e.prize)
        for e in entries
        if e.place is not None and e.place <= 3
    ]
    kept = Round.objects.filter(game_id=final.game_id).order_by("-number").first()
    replay = reverse("public_replay", args=[kept.public_id]) if kept is not None else ""
    for entry in entries:
        finish = finish_of(tournament.size, entry.place) if entry.place else ""
        context = {
            "t": tournament,
            "key": live.notice_key(tournament.pk),
            "finish": finish,
            "entry": entry,
            "podium": podium,
            "replay": replay,
            "bracket": bracket_url(tournament),
            "balance": balance_of(entry.user_id) if entry.prize else None,
        }
        html = render_to_string("games/tournaments/_podium_notice.html", context)
        live.tell_html_on_commit([entry.user_id], html)
