"""Celery tasks: load the game by id and call an action; a task that finds a newer version does nothing."""

from __future__ import annotations

from celery import shared_task

from . import actions


@shared_task(ignore_result=True)
def bot_turn(game_id: str, version: int) -> bool:
    """The computer's next action in `game_id`, if the game is still at `version`."""
    return actions.do_bot_turn(game_id, version)
