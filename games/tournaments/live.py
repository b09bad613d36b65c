"""Telling pages about a tournament, always after commit: the bracket's group (every open bracket
page re-renders it once per version and process, games/web/tournament_consumer.py; a match's tokens
home go to it as a small score update, with no new version) and a player's every open page (the
account's group, accounts.users.sockets), for a notice such as "starting in 10 s" or "you won: your
next match is ready". A tournament's newer notice replaces its older one on the page (site.js keeps
one notice per `data-notice` key), so notices that no longer hold leave and none pile up. The tournament's chat lines go to the
bracket's group too.
"""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string

from accounts.users.sockets import send_to_account
from ludopat import push


def bracket_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def bracket_changed_on_commit(tournament_id: int, version: int) -> None:
    """Every open bracket page of the tournament shows `version` once this transaction commits (a
    page that missed it resyncs on reconnect)."""
    event = {"type": "bracket.update", "tournament": tournament_id, "version": version}
    push.send_on_commit(bracket_group(tournament_id), event, about=f"tournament {tournament_id}")


def score_on_commit(tournament_id: int, match: str, scores: list[int]) -> None:
    """Once this transaction commits, every open bracket page shows match `match` ("round-slot") at
    `scores` (tokens home per side): a few bytes, no re-render of the bracket, no new version."""
    event = {"type": "bracket.score", "match": match, "scores": scores}
    push.send_on_commit(bracket_group(tournament_id), event, about=f"tournament {tournament_id}")


def chat_on_commit(tournament_id: int, message_id: int) -> None:
    """Once this transaction commits, every open bracket page shows the chat's new line (each
    consumer renders it for its viewer: a report button for others' lines, nothing for the banned)."""
    event = {"type": "chat.message", "id": message_id}
    push.send_on_commit(bracket_group(tournament_id), event, about=f"tournament {tournament_id}")


def chat_hidden_on_commit(tournament_id: int, message_id: int) -> None:
    """Once this transaction commits, a line a moderator hid leaves every open bracket page."""
    event = {"type": "chat.hidden", "id": message_id}
    push.send_on_commit(bracket_group(tournament_id), event, about=f"tournament {tournament_id}")


def notice_key(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tell_on_commit(
    user_ids: list[int],
    text: str,
    link: str = "",
    label: str = "",
    tournament_id: int | None = None,
) -> None:
    """Once this transaction commits, a notice at the top of every open page of these players (in
    place of the tournament's notice before it)."""
    context = {"text": text, "link": link, "label": label}
    if tournament_id is not None:
        context["key"] = notice_key(tournament_id)
    tell_html_on_commit(user_ids, render_to_string("games/tournaments/_notice.html", context))


def tell_html_on_commit(user_ids: list[int], html: str) -> None:
    """Once this transaction commits, this out-of-band fragment to every open page of these players."""
    if not user_ids:
        return

    def send() -> None:
        for user_id in user_ids:
            send_to_account(user_id, html)

    transaction.on_commit(send)
