"""Players report a player to the moderators (a chat message is reported from the game's chat:
games.actions.chat.do_report). Reports join the one queue moderators work through in the admin."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.actions.chat import clean_text
from games.errors import Conflict, GameError, NotAllowed


def do_report_player(reporter, reported, reason: str, game_id: str = ""):
    """One open report per reporter and player: reporting again while it is open changes nothing."""
    from games.models import ChatReport, Game

    if reporter is None or not reporter.is_authenticated:
        raise NotAllowed("Log in to report a player.")
    if reporter.pk == reported.pk:
        raise Conflict("You can't report yourself.")
    reason = clean_text(reason)[:200]
    if not reason:
        raise GameError("Say what happened: the moderators read it.")
    game = Game.objects.filter(pk=game_id, seats__user=reported).first() if game_id else None
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                reported=reported, reporter=reporter, reason=reason, game=game
            )
    except IntegrityError:
        return ChatReport.objects.get(
            reported=reported, reporter=reporter, message__isnull=True, resolved_at__isnull=True
        )
