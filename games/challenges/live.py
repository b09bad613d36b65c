"""Telling the two players, always after commit, through the account's group (every open page of
theirs: accounts.users.sockets.send_to_account, which sends through ludopat.push): the challenged
player's notice with Accept and Decline, and each answer (accepted, with the room's link; declined;
withdrawn; lapsed) in its place on both players' pages. Every notice of one challenge has one key
(`data-notice`): site.js keeps the newest, so an answer replaces the offer on every page.
"""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string

from accounts.users.sockets import send_to_account

from .models import Challenge
from .rules import Terms


def terms_of(challenge: Challenge) -> Terms:
    return Terms(
        challenge.ruleset,
        challenge.seats,
        challenge.timer_seconds,
        challenge.rated,
        challenge.stake,
        dict(challenge.options),
    )


def offer_text(challenge: Challenge) -> str:
    what = "to your table" if challenge.room_id else "you"
    if challenge.room_id:
        return f"{challenge.challenger.username} invites you to their table: {terms_of(challenge).describe()}."
    return f"{challenge.challenger.username} challenges {what}: {terms_of(challenge).describe()}."


def answer_texts(challenge: Challenge) -> tuple[str, str]:
    """(the challenger's words, the challenged player's words) for a challenge no longer waiting."""
    a, b = challenge.challenger.username, challenge.challenged.username
    Status = Challenge.Status
    texts: dict[str, tuple[str, str]] = {
        Status.ACCEPTED: (f"{b} accepted your challenge.", f"You accepted {a}'s challenge."),
        Status.DECLINED: (f"{b} declined your challenge.", f"You declined {a}'s challenge."),
        Status.WITHDRAWN: (
            f"You withdrew your challenge to {b}.",
            f"{a} withdrew their challenge.",
        ),
        Status.LAPSED: (
            f"Your challenge to {b} lapsed: no answer within 2 minutes.",
            f"{a}'s challenge lapsed: a challenge is answered within 2 minutes.",
        ),
    }
    return texts.get(challenge.status, ("", ""))


def render_offer(challenge: Challenge, oob: bool = False) -> str:
    context = {"challenge": challenge, "text": offer_text(challenge), "pending": True, "oob": oob}
    return render_to_string("games/challenges/_notice.html", context)


def render_answer(challenge: Challenge, text: str, oob: bool = False) -> str:
    """A challenge's answer as a notice (with the room's link once accepted)."""
    context = {"challenge": challenge, "text": text, "pending": False, "oob": oob}
    return render_to_string("games/challenges/_notice.html", context)


def offered_on_commit(challenge: Challenge) -> None:
    """Once committed, the offer on every open page of the challenged player."""
    transaction.on_commit(
        lambda: send_to_account(challenge.challenged_id, render_offer(challenge, oob=True))
    )


def answered_on_commit(challenge: Challenge) -> None:
    """Once committed, the answer on every open page of both players, in place of the offer."""
    to_challenger, to_challenged = answer_texts(challenge)

    def send() -> None:
        send_to_account(challenge.challenger_id, render_answer(challenge, to_challenger, oob=True))
        send_to_account(challenge.challenged_id, render_answer(challenge, to_challenged, oob=True))

    transaction.on_commit(send)
