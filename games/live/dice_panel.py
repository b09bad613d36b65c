"""The dice panel (#live-dice: the dice, Roll, whose turn, the token buttons, the hand-over forms) as
HTML built here: it is rendered for the one to play, the other players and the watchers at every
version, and the template engine took about 0.5 ms for it where this takes a tenth of that. Every
value that comes from a player or the database is escaped."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from ..models import Game, Seat
from .dice_faces import face
from .token_slot import TOKEN_SLOT

_EMPTY = '<div id="live-dice" class="live-region"></div>'
_KEYS = (
    '<p class="key-hints small muted" data-testid="key-hints">Keys: <kbd class="key">R</kbd> roll ·'
    ' <kbd class="key">1</kbd>–<kbd class="key">4</kbd> pick a token (again: the next one) ·'  # noqa: RUF001  the page's own dash
    ' <kbd class="key">Esc</kbd> cancel</p>'
)


def dice_panel(context: dict[str, Any]) -> str:
    """The panel for the board's `context` (empty unless the game is in play)."""
    game: Game = context["game"]
    if game.status != Game.Status.PLAYING:
        return _EMPTY
    my_turn, is_player = context["my_turn"], context["vp"].is_player
    parts = [f'<div class="panel dice-panel{" my-turn" if my_turn else ""}">', _dice(context)]
    parts.append('<div class="turn-line">')
    if is_player:
        parts.append(_roll_form(context))
    parts.append(_turn_line(context))
    parts.append("</div>")
    if context["token_buttons"]:
        parts.append(_token_buttons(context))
    if is_player:
        parts.append(_KEYS)
    if context["waiting"]:
        parts.append(_waiting(context))
    parts.append("</div>")
    return '<div id="live-dice" class="live-region">' + "\n".join(parts) + "</div>"


def _dice(context: dict[str, Any]) -> str:
    dice, last_roll = context["dice"], context["last_roll"]
    distinct, my_turn = context["distinct_dice"], context["my_turn"]
    if dice:
        label = "Dice in hand: " + ", ".join(str(d) for d in dice)
        faces = []
        for n, d in enumerate(dice):
            value = escape(str(d))
            inert = "" if distinct and my_turn else ' tabindex="-1" aria-disabled="true"'
            use = ": use this number" if distinct and my_turn else ""
            faces.append(
                f'<button type="button" class="die die-{value}{" choosable" if distinct else ""}"'
                f' data-die="{value}" data-testid="die-{n}"{inert}'
                f' aria-label="Die showing {value}{use}" aria-pressed="false">{face(d)}</button>'
            )
    elif last_roll:
        label = "Last roll: " + ", ".join(str(d) for d in last_roll)
        faces = [
            f'<span class="die die-{escape(str(d))} spent" data-testid="last-die-{n}"'
            f' aria-hidden="true">{face(d)}</span>'
            for n, d in enumerate(last_roll)
        ]
    else:
        label = "No roll yet"
        blank = f'<span class="die blank" aria-hidden="true">{face(0)}</span>'
        faces = [blank] * int(context["dice_count"])
    return (
        f'<div class="dice" data-testid="dice" role="group" aria-label="{escape(label)}">'
        + "\n".join(faces)
        + "</div>"
    )


def _roll_form(context: dict[str, Any]) -> str:
    """Roll stays in place for a player the whole game (disabled, still focusable, when it can't
    act), so a keyboard user's focus has somewhere to stay between turns."""
    url, turn = escape(context["urls"]["roll"]), context["turn"]
    seat = ""
    if context["vp"].key == "owner" and turn:
        seat = f'<input type="hidden" name="seat" value="{turn.index}">'
    can_roll = context["can_roll"]
    off = ' aria-disabled="true"' if not can_roll or context["paused"] or context["waiting"] else ""
    owed = f" ({context['rolls_owed'] + 1} owed)" if can_roll and context["rolls_owed"] else ""
    return (
        f'<form hx-post="{url}" hx-target="#game-live" hx-swap="morph" hx-ext="morph"'
        f' method="post" action="{url}" class="roll-form">{TOKEN_SLOT}'
        f'<input type="hidden" name="version" value="{context["game"].version}">{seat}'
        f'<button class="button button-big roll-button" data-testid="roll" id="roll-button"'
        f' aria-keyshortcuts="R"{off}>Roll{owed}'
        ' <kbd class="key" aria-hidden="true">R</kbd></button></form>'
    )


def _turn_line(context: dict[str, Any]) -> str:
    turn: Seat | None = context["turn"]
    if context["my_turn"]:
        who = "Your turn"
        owner = context["vp"].key == "owner" and len(context["seats"]) > 1
        if owner and turn is not None and turn.kind == Seat.Kind.LOCAL:
            who = f"{escape(turn.display_name)}, your turn"
        if context["paused"]:
            who += ": the game is paused"
        elif context["waiting"]:
            who += ": waiting for everyone to be back"
        elif context["awaiting"] == "move" and context["any_move"]:
            who += ": pick a token"
            if context["distinct_dice"]:
                who += " (tap a die first to choose the number)"
        elif context["can_roll"]:
            who += ": roll"
        return f'<p class="your-turn" data-testid="your-turn">{who}</p>'
    if turn is not None:
        thinking = '<span class="thinking" aria-hidden="true"></span>' if turn.is_bot else ""
        return (
            f'<p class="waiting-turn" data-testid="turn-of">{thinking}'
            f"{escape(turn.display_name)} to play…</p>"
        )
    return ""


def _token_buttons(context: dict[str, Any]) -> str:
    paused, distinct = context["paused"], context["distinct_dice"]
    wraps = [
        _token_button(
            *(t[field] for field in _BUTTON_FIELDS),
            tuple((o["die"], o["pair"]) for o in t["options"]),
            paused,
            distinct,
        )
        for t in context["token_buttons"]
    ]
    return (
        '<div class="token-buttons" role="group" aria-label="Tokens to move (keys 1 to 4)"'
        ' data-testid="token-buttons">' + "\n".join(wraps) + "</div>"
    )


# What a token button shows of games.live.presenter's button, in `_token_button`'s order.
_BUTTON_FIELDS = (
    "colour", "index", "label", "key", "movable", "goes", "where", "options_json", "choose",
    "question",
)  # fmt: skip


@lru_cache(maxsize=4096)
def _token_button(
    colour: str,
    index: int,
    label: int,
    key: str,
    movable: bool,
    goes: str,
    where: str,
    options_json: str,
    choose: bool,
    question: str,
    options: tuple[tuple[int | str | None, bool], ...],
    paused: bool,
    distinct: bool,
) -> str:
    """One token's button and its chooser, made once per process for all it shows (`options`: each
    option's die and whether its pair moves): the one to play sees four at every version, mostly
    as the last version showed them."""
    colour, title, key = escape(colour), escape(colour.title()), escape(key)
    can_move = movable and not paused
    goes = f"move {escape(goes)}" if movable else "can't move"
    button = (
        f'<button type="button" class="token-button tb-{colour}{" movable" if can_move else ""}"'
        f' id="tb-{colour}-{index}" data-token="{key}" data-options=\'{escape(options_json)}\''
        f' data-key="{label}" data-testid="move-{colour}-{index}"'
        f'{" disabled" if not movable or paused else ""} aria-keyshortcuts="{label}"'
        f' aria-label="{title} {label}, {escape(where)}: {goes}">'
        f'<span class="tb-disc">{label}</span></button>'
    )
    chooser = ""
    if choose:
        question = escape(question)
        choices = []
        for die_value, pair in options:
            die = escape(str(die_value))
            kind = "pair" if pair else "single"
            text = "Pair" if pair else "Single"
            if distinct or die_value == "total":
                text += " · " + ("total" if die_value == "total" else die)
            choices.append(
                f'<button type="button" class="button button-small choice" data-token="{key}"'
                f' data-die="{die}" data-pair="{1 if pair else 0}"'
                f' data-testid="move-{colour}-{index}-{kind}-{die}">{text}</button>'
            )
        chooser = (
            f'<div class="chooser" data-for="{key}" hidden role="group"'
            f' aria-label="{question} {title} {label}">'
            f'<span class="chooser-question">{question}</span>' + "\n".join(choices) + "</div>"
        )
    return f'<div class="tb-wrap">{button}{chooser}</div>'


def _waiting(context: dict[str, Any]) -> str:
    url = escape(context["urls"]["takeover"])
    parts = [
        f'<p class="waiting" data-testid="waiting">Waiting for {escape(context["waiting_names"])}'
        " to come back…</p>"
    ]
    for h in context["handover"]:
        parts.append(
            f'<form class="handover" data-since="{escape(h["since"])}" data-after="{h["after"]}"'
            f' hx-post="{url}" hx-target="#game-live" hx-swap="morph" hx-ext="morph"'
            f' method="post" action="{url}">{TOKEN_SLOT}'
            f'<input type="hidden" name="seat" value="{h["index"]}">'
            f'<button class="button button-small button-ghost" data-testid="takeover-{h["index"]}">'
            f"Let the computer play for {escape(h['name'])}</button></form>"
        )
    return "\n".join(parts)
