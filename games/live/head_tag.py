"""The opening tag of #game-live (what the page's script reads: version, whose turn, what may be done),
built here: it is rendered for every viewpoint of every version, and the template engine took about
0.3 ms for one tag. A push sends it alone, its attributes copied onto the page's (static/js/game.js)."""

from __future__ import annotations

from typing import Any

from .escaped import escaped


def head_tag(context: dict[str, Any]) -> str:
    """The tag, unclosed (games/_live.html closes it), for the board's `context`."""
    game, urls = context["game"], context["urls"]
    my_turn, is_player = context["my_turn"], context["vp"].is_player
    classes = f"game-live status-{escaped(game.status)}" + (" is-my-turn" if my_turn else "")
    classes += " is-player" if is_player else " is-watcher"
    can_roll = context["can_roll"] and not context["paused"] and not context["waiting"]
    single = context["single_move"]
    single_move = f' data-single-move="{escaped(single)}"' if single else ""
    return (
        f'<div id="game-live" hx-ext="morph" class="{classes}"\n'
        f'  data-testid="game-live" data-version="{game.version}" data-round="{game.round}"'
        f' data-status="{escaped(game.status)}"\n'
        f'  data-my-turn="{_flag(my_turn)}" data-can-roll="{_flag(can_roll)}"'
        f' data-awaiting="{escaped(context["awaiting"])}"\n'
        f'  data-turn="{escaped(context["turn_name"])}" data-move-url="{escaped(urls["move"])}"'
        f' data-roll-url="{escaped(urls["roll"])}" data-live-url="{escaped(urls["live"])}"\n'
        f'  data-ruleset="{escaped(game.ruleset)}" data-timed="{_flag(context["timed"])}"'
        f' data-paused="{_flag(context["paused"])}" data-deadline="{context["deadline_ms"]}"'
        f"{single_move}>"
    )


def _flag(value: object) -> str:
    return "1" if value else "0"
