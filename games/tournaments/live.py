"""Telling pages about a tournament, always after commit: the bracket's group (every open bracket
page re-renders it once per version and process, games/web/consumers.py's TournamentConsumer) and a
player's every open page (the account's group, accounts.users.sockets), for a notice such as "starting in
10 s" or "you won: your next match is ready".
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


def tell_on_commit(user_ids: list[int], text: str, link: str = "", label: str = "") -> None:
    """Once this transaction commits, a notice at the top of every open page of these players."""
    if not user_ids:
        return
    html = render_to_string(
        "games/tournaments/_notice.html", {"text": text, "link": link, "label": label}
    )

    def send() -> None:
        for user_id in user_ids:
            send_to_account(user_id, html)

    transaction.on_commit(send)
