"""What may be staked: the rule sets and timers of staked rooms, a stake's bounds, and the new-player cap
(an account younger than a day, or with too few rounds against people it played itself, stakes at most
the cap). The numbers are the ledger's settings (accounts.ledger.rules).
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone

from accounts.ledger import rules
from accounts.models import User
from leaderboard.models import Result
from ludopat.numbers import parse_int

from ..actions.clock import timer_choices
from ..core.actors import Actor
from ..core.errors import GameError, NotAllowed
from ..models import Action

DEFAULT_TIMER = 15
TWO_PLAYER_RULESETS = ("twodice", "duel", "classic", "places")


def staked_timers() -> tuple[int, ...]:
    """10, 15 or 30 s: a staked room's timer is always on (tests may also use their short timers)."""
    return tuple(seconds for seconds in timer_choices() if seconds)


def parse_stake(raw: object) -> int:
    """A stake typed by a player: ASCII digits only, a whole number within the bounds."""
    low, high = rules.stake_bounds()
    stake = parse_int(raw) if isinstance(raw, str) else raw if type(raw) is int else None
    if stake is None or not low <= stake <= high:
        raise GameError(f"A stake is a whole number of coins from {low:,} to {high:,}.")
    return stake


OWN_ACTIONS_TO_COUNT = 10  # a round lifts the new-player cap only if the player played it


def is_new_player(user_id: int) -> bool:
    """Younger than a day, or fewer real rounds against people than the limit: such accounts stake at
    most the new-player cap.

    A real round is one counted on the against-people board in which the account made at least
    OWN_ACTIONS_TO_COUNT rolls or moves itself (not the computer's for its seat), so resigning games
    against the computer, or at once against a friend's second account, lifts nothing.
    """
    _, games_needed = rules.new_player_limit()
    joined = User.objects.filter(pk=user_id).values_list("date_joined", flat=True).first()
    if joined is None or joined > timezone.now() - timedelta(days=1):
        return True
    return _real_rounds(user_id, games_needed) < games_needed


def _real_rounds(user_id: int, enough: int) -> int:
    """How many of the account's counted rounds against people it played itself (at most `enough`)."""
    own = (
        Action.objects.filter(
            game_id=OuterRef("round__game_id"),
            round=OuterRef("round__number"),
            seat__user_id=user_id,
            kind__in=(Action.Kind.ROLL, Action.Kind.MOVE),
            auto=Action.Auto.NONE,
        )
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rounds = (
        Result.objects.filter(user_id=user_id, counted=True, against_people=True)
        .annotate(own=Subquery(own))
        .filter(own__gte=OWN_ACTIONS_TO_COUNT)
    )
    return len(rounds.values_list("pk", flat=True)[:enough])


def check_stake_for(user_id: int, stake: int) -> None:
    cap, games_needed = rules.new_player_limit()
    if stake > cap and is_new_player(user_id):
        raise GameError(
            f"New accounts stake at most {cap:,} coins until they are a day old and have played "
            f"{games_needed} games against people."
        )


def needs_account(actor: Actor, what: str) -> None:
    """Staked play is for accounts: a guest is asked to sign up or log in to do `what`."""
    if not actor.is_authenticated:
        raise NotAllowed(f"Sign up or log in to {what}: staked rooms are played for coins.")


def account_of(actor: Actor) -> int:
    """The actor's account id, where needs_account has made sure there is one."""
    if actor.user_id is None:
        raise NotAllowed("Sign up or log in: staked rooms are played for coins.")
    return actor.user_id
