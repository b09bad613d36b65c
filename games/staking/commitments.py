"""One commitment at a time: a player with an open staked room or quick-match entry can't commit to
anything else played for coins, and the reverse. The layers above staking (tournaments) add their own
question with `also_refuse` when the app is ready, so staking asks it without importing them.

Every question is asked holding the player's wallet row (`refuse_other_commitments` locks it), which
every commitment's buy-in or stake also locks: two commitments made at the same moment are decided
one after the other, and the second sees the first.
"""

from __future__ import annotations

from collections.abc import Callable

from accounts.ledger import books

from ..errors import Conflict

# Each takes an account id and returns the sentence refusing it ("" if it commits to nothing).
_QUESTIONS: list[Callable[[int], str]] = []


def also_refuse(question: Callable[[int], str]) -> None:
    """Ask `question` before every staked commitment (once, however often it is added)."""
    if question not in _QUESTIONS:
        _QUESTIONS.append(question)


def refuse_other_commitments(user_id: int) -> None:
    """Conflict if the player is committed elsewhere (the questions added above staking)."""
    books.locked_wallet(user_id)
    for question in _QUESTIONS:
        sentence = question(user_id)
        if sentence:
            raise Conflict(sentence)
