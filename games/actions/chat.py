"""The chat of games between people: free text in the waiting room, during pauses and after the game (a
hello, a "gg"); during play only a fixed list of quick phrases, as Ludo King has, so the table can
cheer without typing while the clock runs (and without a side channel for coaching). Spectators never
write.

Messages are cleaned (control and invisible formatting characters removed, runs of whitespace made one
space), at most 200 characters, rate-limited per player, refused for muted accounts (who are told until
when and why), stored, and only then delivered over the game's WebSocket group. They are stored as plain
text and escaped wherever they are shown (templates auto-escape; the admin does too). Players report a
message to the moderators through moderation (accounts.moderation.reports.do_report_message).
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.users.sanctions import ban_in_force, ban_notice, mute_notice
from ludopat import throttle

from ..core import broadcast
from ..core.actors import Actor, refuse_banned, seats_of
from ..core.errors import Banned, Conflict, GameError, NotAllowed
from ..models import ChatMessage, Game, Seat
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


# What a player can send with one tap during play; the page shows them as buttons.
QUICK_PHRASES = (
    "Hello!",
    "Good luck!",
    "Nice move!",
    "Oops!",
    "Hurry up, please!",
    "Thanks!",
    "Well played!",
    "Good game!",
)


class ChatMode:
    FREE = "free"  # anything (cleaned, at most MAX_LENGTH)
    QUICK = "quick"  # one of QUICK_PHRASES
    CLOSED = "closed"


def chat_mode(game: Game) -> str:
    """What the players may say now: free text before the start, during a pause and after the end;
    the quick phrases during play; nothing in a closed room."""
    if game.status == Game.Status.PLAYING:
        return ChatMode.FREE if game.is_paused else ChatMode.QUICK
    if game.status in (Game.Status.OPEN, Game.Status.FINISHED):
        return ChatMode.FREE
    return ChatMode.CLOSED


def chat_open(game: Game) -> bool:
    """Free text can be written now."""
    return chat_mode(game) == ChatMode.FREE


def _allow(game_id: str, user_id: int) -> bool:
    return throttle.within("chat", f"{game_id}:{user_id}", *rate())


def do_chat(game_id: str, actor: Actor, text: str) -> ChatMessage:
    """A player at the table says something (see chat_mode for what, when)."""
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
        if not mine:
            raise NotAllowed("Only the players of this game can chat.")
        if not can_chat(game, seats):
            raise Conflict("The chat opens when another player takes a seat.")
        mode = chat_mode(game)
        if mode == ChatMode.CLOSED:
            raise Conflict("This room is closed: its chat can be read, not written.")
        if mode == ChatMode.QUICK and cleaned not in QUICK_PHRASES:
            raise Conflict("During play, pick one of the quick phrases; free text opens in pauses.")
        user = get_user_model().objects.filter(pk=actor.user_id).first()  # type: ignore[misc]  # None: nobody
        if user is None:
            raise NotAllowed("Log in to chat.")
        # Read under the game's lock: a ban that committed first is seen, whoever asks. (The ban gave
        # up the banned player's seat, which may have ended the round, and the chat is open after it.)
        if ban_in_force(user):
            raise Banned(ban_notice(user))
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
