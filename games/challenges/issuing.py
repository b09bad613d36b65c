"""Making a challenge: `do_challenge` offers a table to one account; `do_invite` offers a seat at the
4-seat table a challenge made, while it waits to start, to another friend (a challenge to that room).

Refused, with a sentence, for oneself, an account that doesn't exist (or is closed), a banned account
(either side), two accounts one of which blocked the other, and a second challenge to the same player
while one waits for an answer (the database's partial unique index decides two presses at once). A
staked challenge is checked against the staked rules here (the challenger's cap, accounts that shared a
browser) and again, with both wallets, at the accept. Floods are the view's (a per-account limit).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.social.reads import blocked_either_way, blocks, follows
from accounts.users import browsers
from accounts.users.sanctions import ban_notice, ban_notice_for

from ..core.actors import Actor
from ..core.errors import Banned, Conflict, GameError, NotAllowed
from ..models import Game, Seat
from . import live
from .models import LAPSES_AFTER, Challenge
from .rules import Terms, check_stake

NO_SUCH_PLAYER = "There is no player called {name}."
SAME_BROWSER = (
    "Two accounts played in the same browser can't play each other for coins: yours and "
    f"{{name}}'s were, in the last {browsers.SHARED_DAYS} days."
)


def challenged_account(name: str) -> User:
    """The active account called `name` (GameError, 404, if none)."""
    user = User.objects.filter(username__iexact=name.strip(), is_active=True).first()
    if user is None:
        raise GameError(NO_SUCH_PLAYER.format(name=name.strip()[:40] or "that"), status=404)
    return user


def refuse_pair(challenger_id: int, challenged: User, stake: int) -> None:
    """The refusals a challenge and its accept share: banned either side, blocked either way, and for
    coins, two accounts seen in one browser."""
    mine = ban_notice_for(challenger_id)
    if mine:
        raise Banned(mine)
    if ban_notice(challenged):
        raise Conflict(f"{challenged.username} is banned and can't play now.")
    if blocks(challenger_id, challenged.pk):
        raise NotAllowed(f"You have blocked {challenged.username}: unblock them to play them.")
    if blocked_either_way(challenger_id, challenged.pk):
        raise NotAllowed(f"{challenged.username} doesn't take challenges from you.")
    if stake and browsers.share_a_browser(challenger_id, challenged.pk):
        raise NotAllowed(SAME_BROWSER.format(name=challenged.username))


def do_challenge(actor: Actor, name: str, terms: Terms) -> Challenge:
    """`actor` challenges the player called `name` to a table on `terms`; it lapses in 2 minutes."""
    if actor.user_id is None:
        raise NotAllowed("Log in to challenge a player.")
    challenged = challenged_account(name)
    if challenged.pk == actor.user_id:
        raise GameError("You can't challenge yourself.")
    refuse_pair(actor.user_id, challenged, terms.stake)
    check_stake(actor.user_id, terms)
    return _make(actor.user_id, challenged, terms, room=None)


def do_invite(actor: Actor, room_id: str, name: str) -> Challenge:
    """The host of a 4-seat table a challenge made invites a friend they follow to one of its open
    seats, before it starts; accepting seats them there (games.challenges.answers)."""
    if actor.user_id is None:
        raise NotAllowed("Log in to invite a player.")
    room = Game.objects.filter(pk=room_id).first()
    if room is None or not room.challenges.exists():
        raise GameError("Friends are invited only to a table a challenge made.", status=404)
    if room.owner_id != actor.user_id:
        raise NotAllowed("Only the table's host invites players to it.")
    if room.status != Game.Status.OPEN:
        raise Conflict("This table has started (or closed): nobody can be invited to it now.")
    seats = list(room.seats.all())
    if not any(seat.kind == Seat.Kind.OPEN for seat in seats):
        raise Conflict("This table is full.")
    invited = challenged_account(name)
    if invited.pk == actor.user_id:
        raise GameError("You can't invite yourself.")
    if any(seat.user_id == invited.pk for seat in seats):
        raise Conflict(f"{invited.username} is at this table already.")
    if not follows(actor.user_id, invited.pk):
        raise NotAllowed(f"Invite the players you follow: follow {invited.username} first.")
    refuse_pair(actor.user_id, invited, 0)
    terms = Terms(room.ruleset, len(seats), room.timer_seconds, room.rated, 0, dict(room.options))
    return _make(actor.user_id, invited, terms, room=room)


def _make(challenger_id: int, challenged: User, terms: Terms, room: Game | None) -> Challenge:
    now = timezone.now()
    try:
        with transaction.atomic():
            # A challenge to this player that lapsed unanswered, not yet swept, doesn't stand in the way.
            Challenge.objects.filter(
                challenger_id=challenger_id,
                challenged=challenged,
                status=Challenge.Status.PENDING,
                lapses__lte=now,
            ).update(status=Challenge.Status.LAPSED, answered=now)
            challenge = Challenge.objects.create(
                challenger_id=challenger_id,
                challenged=challenged,
                ruleset=terms.ruleset,
                options=terms.options,
                seats=terms.seats,
                timer_seconds=terms.timer_seconds,
                rated=terms.rated,
                stake=terms.stake,
                lapses=now + LAPSES_AFTER,
                room=room,
            )
            live.offered_on_commit(challenge)
    except IntegrityError:
        raise Conflict(
            f"You have challenged {challenged.username} already: wait for their answer "
            "(a challenge lapses after 2 minutes)."
        ) from None
    return challenge
