"""Why a game action is refused: each error is a refusal (ludopat.refusals) carrying the HTTP status a
view answers with and a sentence a player can read. Nothing is written when one is raised.
"""

from __future__ import annotations

from ludopat.refusals import Refusal


class GameError(Refusal):
    """A refused action: `status` is the HTTP answer, `str(error)` the sentence shown to the player."""


class GameNotFound(GameError):
    status = 404


class NotAllowed(GameError):
    """The person asking may not do this at all (a spectator, someone else's seat)."""

    status = 403


class Banned(NotAllowed):
    """The account acting is banned (the ban committed after the request or socket was authenticated):
    the sentence says until when and why, and a socket that gets it closes."""


class Conflict(GameError):
    """Not now: out of turn, an illegal token, a finished game, someone to wait for."""

    status = 409


class StaleVersion(Conflict):
    """The player acted on a board that has changed since; the client must resync."""
