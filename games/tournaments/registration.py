"""Opening a tournament, registering for it and leaving it.

- `open_tournament`: a new tournament with an empty pool (an admin's, who may schedule it);
  `do_open_tournament`: a player opens one from the lobby and is registered in it, in one
  transaction, so a refused registration leaves no empty tournament behind; a player hosts one
  registering tournament at a time, and one they left with nobody in it closes;
- `do_register`: the buy-in moves from the wallet to the pool in the transaction that takes the seat, so
  a seat is never taken unpaid. Refused for guests, banned accounts, a full or started tournament,
  a new account above its cap, a player committed elsewhere (staking.commitments: an open staked
  room, a quick-match entry, a staked game in play, another unfinished tournament) and an account that shared a browser with one already registered.
  The last seat of a sit-and-go starts the countdown ("starting in 10 s") on every player's page;
- `do_leave`: before the start, the buy-in comes back; a leave that raced the start is refused, saying
  so (the player then forfeits with `do_forfeit`, knowing it); `do_forfeit` after the start: the current
  match is resigned and every later one is lost without play; the buy-in stays in the pot.

Lock order: games, then the tournament row, then wallets and the pool (games/actions/core.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.ledger import pools
from accounts.models import User
from accounts.users import browsers
from accounts.users.sanctions import ban_notice

from ..actions.core import lock_game
from ..actions.leaving import give_up_for_ban
from ..actions.state import seats_in
from ..core.actors import Actor
from ..core.errors import Banned, Conflict, GameNotFound, NotAllowed
from ..core.task_queue import send_task
from ..models import Game
from ..staking.commitments import refuse_other_commitments
from ..staking.rules import account_of, check_stake_for, needs_account
from . import bracket, live, starting_soon
from .models import Tournament, TournamentEntry, TournamentMatch
from .rules import DEFAULT_TIMER, parse_buy_in, parse_size, parse_timer, start_delay

STARTED = (
    "The tournament started before you left: you are in the bracket now. Leaving now forfeits "
    "your matches (your buy-in stays in the pot)."
)
OVER = "This tournament is over: there is nothing to leave."
EMPTIED = "Everyone left before it filled."
SAME_BROWSER = (
    "Two accounts played in the same browser can't play each other for coins: yours and a "
    f"registered player's were, in the last {browsers.SHARED_DAYS} days."
)


def open_tournament(
    size: object,
    buy_in: object,
    timer_seconds: object = DEFAULT_TIMER,
    scheduled_for: datetime | None = None,
    host_id: int | None = None,
) -> Tournament:
    """A new tournament, registering, with an empty pool; `scheduled_for`: it starts then (beat)."""
    size, buy_in, timer = parse_size(size), parse_buy_in(buy_in), parse_timer(timer_seconds)
    with transaction.atomic():
        return Tournament.objects.create(
            size=size,
            buy_in=buy_in,
            timer_seconds=timer,
            pool=pools.open_pool(),
            scheduled_for=scheduled_for,
            starts_at=scheduled_for,
            host_id=host_id,
        )


def do_open_tournament(
    actor: Actor, size: object, buy_in: object, timer_seconds: object = DEFAULT_TIMER
) -> Tournament:
    """A player opens a sit-and-go from the lobby and takes its first seat, in one transaction: if
    the seat is refused (a new account's cap, a short wallet, another commitment) or the player
    still hosts another registering tournament, nothing is written."""
    needs_account(actor, "open a tournament")
    user_id = account_of(actor)
    with transaction.atomic():
        tournament = open_tournament(size, buy_in, timer_seconds, host_id=user_id)
        do_register(actor, tournament.pk)
        # Asked holding the player's wallet (register's commitment check took it), so two opens
        # pressed at once are decided one after the other.
        hosted = (
            Tournament.objects.filter(host_id=user_id, status=Tournament.Status.OPEN)
            .exclude(pk=tournament.pk)
            .values_list("pk", flat=True)
            .first()
        )
        if hosted is not None:
            raise Conflict(
                f"You opened tournament #{hosted}, which is still registering: a player hosts one "
                "at a time. It starts once full; open another then."
            )
        return tournament


def unfinished_entry_of(user_id: int) -> TournamentEntry | None:
    """The player's entry in a tournament not over yet in which they are still in (at most one)."""
    return (
        TournamentEntry.objects.filter(
            user_id=user_id,
            tournament__status__in=[Tournament.Status.OPEN, Tournament.Status.PLAYING],
            place__isnull=True,
            forfeited=False,
        )
        .select_related("tournament")
        .first()
    )


def commitment_refusal(user_id: int) -> str:
    """Staking's question (staking.commitments): why a player in a tournament can't stake now."""
    entry = unfinished_entry_of(user_id)
    if entry is None:
        return ""
    if entry.tournament.status == Tournament.Status.OPEN:
        return (
            f"You are registered in tournament #{entry.tournament_id}: leave it before you play "
            "for coins elsewhere."
        )
    return (
        f"You are playing in tournament #{entry.tournament_id}: finish it (or leave it) before "
        "you play for coins elsewhere."
    )


def do_register(actor: Actor, tournament_id: object) -> TournamentEntry:
    """Take a seat in the tournament, the buy-in into its pool, in one transaction."""
    needs_account(actor, "join a tournament")
    user_id = account_of(actor)
    with transaction.atomic():
        tournament = bracket.lock_tournament(tournament_id)
        mine = tournament.entries.filter(user_id=user_id).first()
        if mine is not None:
            return mine  # registered already (a repeated click): nothing moves
        if tournament.status != Tournament.Status.OPEN:
            raise Conflict("This tournament has started or is over: join another one.")
        entrants = list(tournament.entries.values_list("user_id", flat=True))
        if len(entrants) >= tournament.size:
            raise Conflict("This tournament is full: join another one.")
        notice = ban_notice(User.objects.get(pk=user_id))  # a ban that committed since the request
        if notice:
            raise Banned(notice)
        check_stake_for(user_id, tournament.buy_in)
        refuse_other_commitments(user_id)  # holds the wallet: one commitment decided at a time
        if entrants and browsers.accounts_sharing_a_browser_with(user_id) & set(entrants):
            raise NotAllowed(SAME_BROWSER)
        entry = TournamentEntry.objects.create(tournament=tournament, user_id=user_id)
        pools.buy_in(
            tournament.pool, user_id, tournament.buy_in, f"Tournament #{tournament.pk} buy-in"
        )
        players = [*entrants, user_id]
        if len(players) == tournament.size and tournament.scheduled_for is None:
            _count_down(tournament, players)
        elif starting_soon.told_already(tournament, now := timezone.now()):
            # Registered after the "starts in N s" notice: told too; and if this seat was the last,
            # everyone, whose notice said the start hung on it.
            full = len(players) == tournament.size
            starting_soon.tell_on_commit(tournament, players if full else [user_id], players, now)
        bracket.changed(tournament)
        return entry


def _count_down(tournament: Tournament, players: list[int]) -> None:
    """Full: it starts in a few seconds (the task at that time; the sweeper backs it up)."""
    delay = start_delay()
    tournament.starts_at = timezone.now() + timedelta(seconds=delay)
    tournament_id, when = tournament.pk, tournament.starts_at
    transaction.on_commit(
        lambda: send_task("games.tasks.start_tournament", (tournament_id,), eta=when)
    )
    live.tell_on_commit(
        players,
        f"Tournament #{tournament.pk} is full and starts in {delay:g} s.",
        bracket.bracket_url(tournament),
        "See the bracket",
        tournament_id=tournament.pk,
    )


def do_leave(actor: Actor, tournament_id: object) -> Tournament:
    """Leave before the start: the buy-in comes back to the wallet (and a countdown stops)."""
    needs_account(actor, "leave a tournament")
    user_id = account_of(actor)
    with transaction.atomic():
        tournament = bracket.lock_tournament(tournament_id)
        entry = tournament.entries.filter(user_id=user_id).first()
        if entry is None:
            raise Conflict("You are not registered in this tournament.")
        if tournament.status != Tournament.Status.OPEN:
            raise Conflict(_why_not_open(tournament))
        entry.delete()
        pools.give_back(
            tournament.pool, user_id, tournament.buy_in, f"Left tournament #{tournament.pk}"
        )
        if tournament.host_id is not None and not tournament.entries.exists():
            # A player's tournament that nobody is in closes, rather than wait in the lobby (and
            # keep its host from opening another) for ever. Its pool holds nothing.
            tournament.status = Tournament.Status.CANCELLED
            tournament.finished = timezone.now()
            tournament.starts_at = None
            tournament.cancel_reason = EMPTIED
            bracket.changed(tournament)
            return tournament
        if starting_soon.told_already(tournament, now := timezone.now()):
            # Told it starts in a few seconds: now it does only if this seat fills again.
            others = list(tournament.entries.values_list("user_id", flat=True))
            starting_soon.tell_on_commit(tournament, others, others, now)
        elif tournament.scheduled_for is None and tournament.starts_at is not None:
            tournament.starts_at = None  # not full any more: the countdown stops
            others = list(tournament.entries.values_list("user_id", flat=True))
            live.tell_on_commit(
                others,
                f"A player left tournament #{tournament.pk}: it starts once full again.",
                bracket.bracket_url(tournament),
                "See the bracket",
                tournament_id=tournament.pk,
            )
        bracket.changed(tournament)
        return tournament


def _why_not_open(tournament: Tournament) -> str:
    """Why a player can't leave a tournament that no longer registers: a page from before its start
    (or its cancel, or its end) asked, so say what did happen."""
    if tournament.status == Tournament.Status.CANCELLED:
        why = f" ({tournament.cancel_reason.rstrip('.')})" if tournament.cancel_reason else ""
        return (
            f"Tournament #{tournament.pk} was cancelled{why}: your buy-in is back in your wallet, "
            "there is nothing to leave."
        )
    if tournament.status == Tournament.Status.FINISHED:
        return OVER
    return STARTED


def do_forfeit(actor: Actor, tournament_id: object) -> Tournament:
    """Leave after the start: the match in play is resigned (its opponent wins) and every later match
    is lost without play. The buy-in stays in the pot."""
    needs_account(actor, "leave a tournament")
    user_id = account_of(actor)
    if type(tournament_id) is not int:
        raise GameNotFound("There is no such tournament.")
    live_game = _live_match_game(tournament_id, user_id)
    with transaction.atomic():
        game = lock_game(live_game) if live_game else None  # the room before the tournament
        tournament = bracket.lock_tournament(tournament_id)
        entry = tournament.entries.filter(user_id=user_id).first()
        if entry is None:
            raise Conflict("You are not registered in this tournament.")
        if tournament.is_over:
            raise Conflict(_why_not_open(tournament))
        if tournament.status != Tournament.Status.PLAYING:
            raise Conflict("This tournament is not in play: leave it before the start.")
        if entry.forfeited or entry.place is not None:
            raise Conflict("You are out of this tournament already.")
        if _live_match_game(tournament.pk, user_id) != live_game:  # a match ended meanwhile
            raise Conflict("Your match changed just now: press Leave again to forfeit.")
        entry.forfeited = True
        entry.save(update_fields=["forfeited"])
        if game is not None and game.status == Game.Status.PLAYING:
            # Resigns the seat: the opponent wins (the round-end handler moves the bracket on).
            give_up_for_ban(game, seats_in(game), user_id)
            tournament.refresh_from_db()
        else:  # between rounds: the next match opens as a walkover once its other player is known
            bracket.changed(tournament)
        return tournament


def _live_match_game(tournament_id: int, user_id: int) -> str | None:
    """The room of the player's match in play, read without a lock (locked next, then re-checked)."""
    return (
        TournamentMatch.objects.filter(
            tournament_id=tournament_id, winner__isnull=True, game__status=Game.Status.PLAYING
        )
        .filter(Q(first__user_id=user_id) | Q(second__user_id=user_id))
        .values_list("game_id", flat=True)
        .first()
    )
