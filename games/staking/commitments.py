"""One commitment for coins at a time: a player holds at most one of an open staked room (a rematch
offer is one), a quick-match entry, a staked game in play, or a tournament registered or in play.
Every door into one asks `refuse_other_commitments`: opening and joining a room, a quick-match press
(waiting or paired at once), the sweeper pairing two entries, offering and accepting a rematch,
opening and registering for a tournament, and accepting a staked challenge (games.challenges.answers:
both players asked, their wallets locked in id order, as the sweeper's pairing does). Staking answers for its own commitments here; the layers
above it (tournaments) add their question with `also_refuse` when the app is ready, so staking asks
it without importing them.

Every question is asked holding the player's wallet row (`books.locked_wallet`, after the game and
tournament rows: the lock order of docs/architecture.md), which every commitment's stake or buy-in
also locks: two commitments made at the same moment are decided one after the other, and the second
sees the first. Never a lock on the account row, which every game write's foreign-key check shares.
"""

from __future__ import annotations

from collections.abc import Callable

from accounts.ledger import books

from ..core.errors import Conflict
from ..models import Game

# Each takes an account id and returns the sentence refusing it ("" if it commits to nothing).
_QUESTIONS: list[Callable[[int], str]] = []

ELSEWHERE = "before you play for coins elsewhere."


def also_refuse(question: Callable[[int], str]) -> None:
    """Ask `question` before every staked commitment (once, however often it is added)."""
    if question not in _QUESTIONS:
        _QUESTIONS.append(question)


def staked_commitment(user_id: int, but: str | None = None) -> str:
    """The sentence naming the player's open staked room, quick-match entry, rematch offer or staked
    game in play ("" if none); `but`: a room of theirs not to count (the entry being paired)."""
    waiting = (
        Game.objects.filter(owner_id=user_id, stake__gt=0, status=Game.Status.OPEN)
        .exclude(pk=but)
        .values_list("stake", "quick", "rematch_of_id")
        .first()
    )
    if waiting is not None:
        stake, quick, rematch = waiting
        if quick:
            return f"You are waiting for a quick match at {stake:,} coins: cancel it {ELSEWHERE}"
        if rematch:
            return f"You have offered a rematch at {stake:,} coins: withdraw it {ELSEWHERE}"
        return f"You have an open staked room at {stake:,} coins: cancel it {ELSEWHERE}"
    playing = (
        Game.objects.filter(stake__gt=0, status=Game.Status.PLAYING)
        .filter(seats__user_id=user_id, seats__resigned=False)
        .exclude(pk=but)
        .values_list("stake", flat=True)
        .first()
    )
    if playing is not None:
        return f"You are playing a staked game at {playing:,} coins: finish it {ELSEWHERE}"
    return ""


def refuse_other_commitments(user_id: int, *, but: str | None = None) -> None:
    """Conflict, with a sentence naming it, if the player holds a commitment for coins (`but`: their
    own open room that this door turns into a game)."""
    books.locked_wallet(user_id)
    for question in (lambda player: staked_commitment(player, but), *_QUESTIONS):
        sentence = question(user_id)
        if sentence:
            raise Conflict(sentence)


def refuse_pairing(entries: dict[int, str]) -> None:
    """The sweeper pairs two waiting entries into a game for both players ({player: their entry}):
    each is asked as at any door, their own entry aside, the wallets locked in the ledger's order
    (ascending id), as a posting between them locks them."""
    ordered = sorted(entries, key=lambda user_id: books.wallet_of(user_id).pk)
    for user_id in ordered:
        books.locked_wallet(user_id)
    for user_id in ordered:
        refuse_other_commitments(user_id, but=entries[user_id])
