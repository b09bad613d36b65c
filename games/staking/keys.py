"""Idempotency keys of the staked forms (create, join, quick match, rematch): a form carries a key made
when it was shown, and a repeated submission finds the first one's game and moves no coin. A key that
comes back with another request is refused.
"""

from __future__ import annotations

import hashlib
import json

from django.db import IntegrityError, transaction

from ..core.actors import Actor
from ..core.errors import GameError
from ..models import Game
from .models import StakeRequest
from .rules import account_of

KEY_REUSED = (
    "This form was already used for a different request: reload the page and try again "
    "(nothing was changed)."
)


def fingerprint(what: tuple) -> str:
    """What a request asks for (its action and parameters, as the action understood them)."""
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def is_repeat(user_id: int | None, key: str | None) -> bool:
    """Whether the player sent this form before (its key claimed): a repeated submission, which
    `first_answer` answers with the first one's result."""
    if not key or user_id is None:
        return False
    return StakeRequest.objects.filter(user_id=user_id, key=key[:64]).exists()


def first_answer(
    actor: Actor, key: str | None, what: tuple
) -> tuple[StakeRequest | None, Game | None]:
    """Claim the form's key for this request, or find the game its first submission produced.

    Inside the caller's transaction: if the first submission is still running, the unique index makes
    this one wait for it; if it failed (nothing was written), its key is free again. A key that comes
    back with another request (`what`: the action and its parameters) is refused, as payment APIs do:
    answering it with the first request's result would tell the player something they didn't ask.
    """
    if not key:
        return None, None
    key, asked = key[:64], fingerprint(what)
    try:
        with transaction.atomic():
            claimed = StakeRequest.objects.create(
                user_id=account_of(actor), key=key, fingerprint=asked
            )
            return claimed, None
    except IntegrityError:
        first = StakeRequest.objects.select_related("game").get(user_id=account_of(actor), key=key)
        if first.fingerprint and first.fingerprint != asked:
            raise GameError(KEY_REUSED, status=422) from None
        return None, first.game


def answer(request: StakeRequest | None, game: Game) -> Game:
    """Note the game a claimed key produced, so its repeats find it; returns the game."""
    if request is not None:
        request.game = game
        request.save(update_fields=["game"])
    return game
