"""A refusal: something the site won't do, carrying the HTTP status a view answers with and a sentence
a person can read. Every app's refusals build on it (games.core.errors, accounts.ledger.errors), so a view or
a consumer catches `Refusal` once, whichever layer refused; nothing is written when one is raised.

It is plumbing: it knows no app, so the ledger's refusals need nothing of the games above it.
"""

from __future__ import annotations


class Refusal(Exception):
    """A refused request: `status` is the HTTP answer, `str(refusal)` the sentence shown to the person."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status
