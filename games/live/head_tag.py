"""The opening tag of #game-live (what the page's script reads: version, whose turn, what may be done),
built here: it is rendered for every viewpoint of every version, and the template engine took about
0.3 ms for one tag. A push sends it alone, its attributes copied onto the page's (static/js/game.js)."""

from __future__ import annotations

from html import escape
from typing import Any


def head_tag(context: dict[str, Any]) -> str:
    """The tag, unclosed (games/_live.html closes it), for the board's `context`."""
    game, urls = context["game"], context["urls"]
    my_turn, is_player = context["my_turn"], context["vp"].is_player
    classes = f"game-live status-{escape(game.status)}" + (" is-my-turn" if my_turn else "")
    classes += " is-player" if is_player else " is-watcher"
    can_roll = context["can_roll"] and not context["paused"] and not context["waiting"]
    single = context["single_move"]
    single_move = f' data-single-move="{escape(single)}"' if single else ""
    return (
        f'<div id="game-live" hx-ext="morph" class="{classes}"\n'
        f'  data-testid="game-live" data-version="{game.version}" data-round="{game.round}"'
        f' data-status="{escape(game.status)}"\n'
        f'  data-my-turn="{_flag(my_turn)}" data-can-roll="{_flag(can_roll)}"'
        f' data-awaiting="{escape(context["awaiting"])}"\n'
        f'  data-turn="{escape(context["turn_name"])}" data-move-url="{escape(urls["move"])}"'
        f' data-roll-url="{escape(urls["roll"])}" data-live-url="{escape(urls["live"])}"\n'
        f'  data-ruleset="{escape(game.ruleset)}" data-timed="{_flag(context["timed"])}"'
        f' data-paused="{_flag(context["paused"])}" data-deadline="{context["deadline_ms"]}"'
        f"{single_move}>"
    )


def _flag(value: object) -> str:
    return "1" if value else "0"
