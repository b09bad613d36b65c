"""The chat of games between people: open during pauses, readable afterwards.

Messages are cleaned (control and invisible formatting characters removed, runs of whitespace made one
space), at most 200 characters, rate-limited per player, refused for muted accounts (who are told until
when and why), stored, and only then delivered over the game's WebSocket group. They are stored as plain
text and escaped wherever they are shown (templates auto-escape; the admin does too).
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.moderation import mute_notice

from .. import broadcast, throttle
from ..actors import Actor, refuse_banned, seats_of
from ..errors import Conflict, GameError, GameNotFound, NotAllowed
from ..models import ChatMessage, ChatReport, Game, Seat
from . import core
from .pauses import people_game
from .state import seats_in

MAX_LENGTH = ChatMessage.MAX_LENGTH
_SPACES = re.compile(r"\s+")


class TooFast(GameError):
    status = 429


def rate() -> tuple[int, int]:
    """(messages, seconds) a player may send."""
    return tuple(getattr(settings, "LUDOPAT_CHAT_RATE", (5, 10)))


def clean_text(text: str) -> str:
    """Whitespace made single spaces; control (Cc), formatting and zero-width (Cf), surrogate and
    private-use characters dropped; NFC-normalised."""
    text = unicodedata.normalize("NFC", text or "")
    text = _SPACES.sub(" ", text)
    kept = (ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return _SPACES.sub(" ", "".join(kept)).strip()


def can_chat(game: Game, seats: list[Seat]) -> bool:
    return people_game(game, seats)


def chat_open(game: Game) -> bool:
    return game.is_paused and game.status == Game.Status.PLAYING


def _allow(game_id: str, user_id: int) -> bool:
    return throttle.within("chat", f"{game_id}:{user_id}", *rate())


def do_chat(game_id: str, actor: Actor, text: str) -> ChatMessage:
    """A player at the table says something during a pause."""
    cleaned = clean_text(text)
    if not cleaned:
        raise GameError("Write a message first.")
    if len(cleaned) > MAX_LENGTH:
        raise GameError(f"A message is at most {MAX_LENGTH} characters.")
    with transaction.atomic():
        game = core.lock_game(game_id)
        seats = seats_in(game)
        refuse_banned(game, seats, actor)
        mine = seats_of(game, seats, actor)
        if not mine or not can_chat(game, seats):
            raise NotAllowed("Only the players of this game can chat.")
        if not chat_open(game):
            raise Conflict("The chat opens during pauses.")
        user = get_user_model().objects.filter(pk=actor.user_id).first()  # type: ignore[misc]  # None: nobody
        if user is None:
            raise NotAllowed("Log in to chat.")
        muted = mute_notice(user)
        if muted:
            raise NotAllowed(muted)  # "Muted until <when>: <the moderator's reason>"
        if not _allow(game.pk, user.pk):
            raise TooFast("You're sending messages too fast: wait a moment.")
        message = ChatMessage.objects.create(
            game=game, seat=mine[0], user=user, name=mine[0].display_name, text=cleaned
        )
        game_pk, message_pk = game.pk, message.pk
        transaction.on_commit(lambda: broadcast.chat_message(game_pk, message_pk))
        return message


def do_report(game_id: str, actor: Actor, message_id: int, reason: str = "") -> ChatReport:
    """A player flags a message for the moderators (once per message)."""
    message = ChatMessage.objects.filter(pk=message_id, game_id=game_id).first()
    if message is None:
        raise GameNotFound("There is no such message in this game.")
    game = message.game
    seats = list(game.seats.select_related("user"))
    refuse_banned(game, seats, actor)
    if not seats_of(game, seats, actor) or actor.user_id is None:
        raise NotAllowed("Only the players of this game can report a message.")
    if message.user_id == actor.user_id:
        raise Conflict("That is your own message.")
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message,
                reported_id=message.user_id,
                game=game,
                reporter_id=actor.user_id,
                reason=clean_text(reason)[:200],
            )
    except IntegrityError:
        return ChatReport.objects.get(message=message, reporter_id=actor.user_id)
