"""Tournaments for the tests: players, a full tournament started at once, matches decided by a
resignation (the quickest way a match ends; whole games played by the computer are the integration
test's)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts.ledger.history import balance_of
from games import actions
from games.models import Game
from games.tournaments.models import Tournament, TournamentMatch
from games.tournaments.registration import do_register, open_tournament
from games.tournaments.starting import do_start
from tests.factories import member, seasoned_account


def players(count: int, prefix: str = "p") -> list:
    return [member(seasoned_account(f"{prefix}{i}")) for i in range(count)]


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def full_tournament(people, buy_in: int = 100, start: bool = True, **kwargs) -> Tournament:
    tournament = open_tournament(len(people), buy_in, **kwargs)
    for actor in people:
        do_register(actor, tournament.pk)
    if start:
        start_now(tournament)
    return fresh(tournament)


def start_now(tournament: Tournament) -> bool:
    """The countdown is over (its task, or the sweeper): the tournament starts."""
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(1))
    return do_start(tournament.pk)


def live_matches(tournament: Tournament) -> list[TournamentMatch]:
    return list(
        TournamentMatch.objects.filter(
            tournament=tournament, winner__isnull=True, game__status=Game.Status.PLAYING
        ).select_related("first__user", "second__user", "game")
    )


def lose(match: TournamentMatch, people) -> None:
    """The match's first player resigns: the second wins."""
    loser = next(actor for actor in people if actor.user_id == match.first.user_id)
    actions.do_resign(match.game_id, loser)


def play_out(tournament: Tournament, people) -> Tournament:
    """Every match decided by its first player resigning, round by round, to the end."""
    for _ in range(tournament.size):
        matches = live_matches(tournament)
        if not matches:
            break
        for match in matches:
            lose(match, people)
    return fresh(tournament)


def balances(people) -> dict[int, int]:
    return {actor.user_id: balance_of(actor.user_id) for actor in people}
