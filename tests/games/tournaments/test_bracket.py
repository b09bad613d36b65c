"""A tournament from registration to the prizes: the bracket, the next round opening when both feeders
finish, the winner seated, the prizes paid once with the cut, and rounding."""

from __future__ import annotations

import pytest

from accounts.ledger.models import LedgerTransaction
from games import actions
from games.core.errors import Conflict
from games.models import Game
from games.tournaments.models import Tournament, TournamentMatch
from games.tournaments.rules import prizes
from leaderboard.ratings.reads import shown_ratings
from tests.games.tournaments.helpers import (
    balances,
    fresh,
    full_tournament,
    live_matches,
    lose,
    play_out,
    players,
)
from tests.ledger_checks import assert_ledger_ok, ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_four_player_tournament_pays_70_30_of_the_pot_after_the_cut():
    people = players(4)
    before = balances(people)
    tournament = full_tournament(people, buy_in=100)
    assert tournament.status == Tournament.Status.PLAYING
    first_round = live_matches(tournament)
    assert len(first_round) == 2
    assert all(m.game.in_tournament and m.game.stake == 0 for m in first_round)
    assert all(m.game.timer_seconds == tournament.timer_seconds for m in first_round)

    lose(first_round[0], people)
    # One semi-final decided: the final waits for the other one, its winner seated in it.
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final.game_id is None
    assert final.first_id == first_round[0].second_id
    lose(first_round[1], people)
    final.refresh_from_db()
    assert final.game.status == Game.Status.PLAYING
    assert_ledger_ok()

    lose(final, people)
    tournament = fresh(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    after = balances(people)
    champion, runner_up = final.second.user_id, final.first.user_id
    # Pot 400, the house's 10% is 40: 252 and 108 of the 360 left.
    assert after[champion] - before[champion] == 252 - 100
    assert after[runner_up] - before[runner_up] == 108 - 100
    assert sum(after.values()) == sum(before.values()) - 40
    prize = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.PRIZE)
    assert prize.count() == 1 and prize.get().closes_id == tournament.pool_id


def test_eight_players_split_with_rounding_and_the_remainder_to_first(settings):
    settings.LUDOPAT_RAKE_BP = 333  # pot 400: cut 13, 387 to share
    people = players(8)
    before = balances(people)
    tournament = play_out(full_tournament(people, buy_in=50), people)
    assert tournament.status == Tournament.Status.FINISHED
    assert prizes(8, 387) == [195, 96, 48, 48]
    won = sorted((entry.place, entry.prize) for entry in tournament.entries.all() if entry.prize)
    assert won == [(1, 195), (2, 96), (3, 48), (3, 48)]
    after = balances(people)
    assert sum(after.values()) == sum(before.values()) - 13


def test_sixteen_places_and_shares():
    assert prizes(16, 1000) == [400, 200, 100, 100, 50, 50, 50, 50]
    assert prizes(16, 1003) == [403, 200, 100, 100, 50, 50, 50, 50]
    assert prizes(4, 1) == [1, 0]


def test_a_match_is_one_round_and_a_void_plays_it_again(django_user_model):
    people = players(4)
    tournament = full_tournament(people)
    match = live_matches(tournament)[0]
    with pytest.raises(Conflict):
        actions.do_new_round(
            match.game_id,
            people[0]
            if match.first.user_id == people[0].user_id
            else next(a for a in people if a.user_id == match.first.user_id),
        )
    from accounts.moderation.voids import do_void
    from tests.accounts.moderation.conftest import staff

    admin = staff(django_user_model, "boss", "Admin")
    old = match.game_id
    do_void(admin, old, reason="Testing")
    match.refresh_from_db()
    assert match.winner_id is None
    assert match.game_id != old and match.game.status == Game.Status.PLAYING


def test_the_winner_is_told_live_and_the_bracket_pushed(django_capture_on_commit_callbacks):
    people = players(4)
    tournament = full_tournament(people)
    match = live_matches(tournament)[0]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        lose(match, people)
    assert callbacks  # the push and the notice wait for the commit
    assert fresh(tournament).version > tournament.version


def test_the_computer_stands_in_for_an_absent_player_at_the_easy_level():
    from games.actions.turns import stand_in_level

    tournament = full_tournament(players(4))
    match = live_matches(tournament)[0]
    seat = match.game.seats.get(index=0)
    assert stand_in_level(match.game, seat, "strong") == "random"


def test_a_player_not_there_past_the_grace_is_handed_to_the_computer_until_back():
    from datetime import timedelta

    from django.utils import timezone

    from games.actions import absence, timers
    from games.models import Action
    from tests.games.webplay import turn_seat

    tournament = full_tournament(players(4))
    game = live_matches(tournament)[0].game
    seat = turn_seat(game)  # nobody ever opened the page: past the grace, their turn isn't over
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timers.do_deadline(game.pk)
    seat.refresh_from_db()
    assert seat.bot_controlled
    assert Action.objects.filter(game=game, kind=Action.Kind.TAKEOVER, seat=seat).exists()
    assert absence.seat_connected(game.pk, seat.pk)  # their page opens: the seat is theirs again
    seat.refresh_from_db()
    assert not seat.bot_controlled


def test_the_final_shows_each_finalists_rating_after_their_semi_final():
    people = players(4)
    tournament = full_tournament(people)
    for match in live_matches(tournament):
        lose(match, people)
    (final,) = live_matches(tournament)
    seats = {seat.user_id: seat.rating for seat in final.game.seats.all()}
    now = shown_ratings(list(seats), final.game.ruleset)
    # Each finalist won a rated semi-final: the final's board shows the rating that win gave them.
    assert seats == {user_id: now[user_id].value for user_id in seats}
    assert all(now[user_id].games == 1 for user_id in seats)
