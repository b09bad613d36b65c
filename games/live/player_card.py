"""One player's card in #live-players, as HTML built here: the cards are the board's most rendered
piece (each seat's, once as everyone sees it and once as its own player does, every version), and the
template engine spent about 0.2 ms on each where this takes a twentieth of that. Every value that
comes from a player or the database is escaped."""

from __future__ import annotations

from typing import Any

from ..models import LEVEL_NAMES, RULESET_NAMES, Game, Seat
from .escaped import escaped

_PLACES = {1: "1st", 2: "2nd", 3: "3rd"}


def player_card(s: dict[str, Any], context: dict[str, Any]) -> str:
    """The card of the seat view `s` (games.live.presenter) in the board's `context`."""
    game: Game = context["game"]
    index = s["index"]
    classes = f"player player-{escaped(s['colours'][0])}" if s["colours"] else "player player-"
    classes += (" active" if s["active"] else "") + (" mine" if s["mine"] else "")
    classes += " resigned" if s["resigned"] else ""
    current = ' aria-current="true"' if s["active"] else ""
    swatches = "".join(f'<span class="swatch swatch-{escaped(c)}"></span>' for c in s["colours"])
    name = escaped(s["name"])
    if s["rating"] is not None:  # (the rule set's name as get_ruleset_display gives it, faster)
        name += (
            f' <span class="rating muted" data-testid="rating-{index}"'
            f' title="Rating in {escaped(RULESET_NAMES.get(game.ruleset, game.ruleset))}">'
            f"{s['rating']}</span>"
        )
    if s["mine"] and context["vp"].key != "owner":
        name += ' <span class="you">(you)</span>'
    sub = escaped(s["colour_names"])
    if s["kind"] == Seat.Kind.COMPUTER:
        level = s["seat"].level
        sub += (
            f" · {escaped(LEVEL_NAMES.get(level, level).lower())}"  # (get_level_display's, faster)
        )
    elif s["is_bot"] and game.status == Game.Status.PLAYING:
        sub += " · computer plays"
    if s["resigned"]:
        sub += " · resigned"
    meta = _meta(s, game, context)
    to_play = '<span class="sr-only">, to play</span>' if s["active"] else ""
    return (
        f'<li class="{classes}" data-testid="player-{index}"{current}>'
        f'<span class="swatches" aria-hidden="true">{swatches}</span> '
        f'<span class="player-main"><span class="player-name">{name}</span> '
        f'<span class="player-sub">{sub}</span></span> '
        f'<span class="player-meta">{" ".join(meta)}</span>{to_play}</li>'
    )


def _meta(s: dict[str, Any], game: Game, context: dict[str, Any]) -> list[str]:
    """The card's right side: place and points, or tokens home; online; a new round agreed; away;
    the turn's timer."""
    index, meta = s["index"], []
    if s["place"]:
        place = s["place"]
        text = _PLACES.get(place, f"{place}th")
        if s["points"] is not None:
            if s["not_counted"]:
                reason = escaped(s["not_counted"])
                text += (
                    f' · <span class="not-counted" title="Not counted: {reason}">not counted</span>'
                )
            else:
                text += f" · {s['points']} pts"
        meta.append(f'<span class="place place-{place}" data-testid="place-{index}">{text}</span>')
    elif game.status != Game.Status.OPEN:
        meta.append(
            f'<span class="home-count" title="Tokens home">{s["home"]}/{s["total"]} home</span>'
        )
    if s["online"] is not None:
        on = "on" if s["online"] else "off"
        word = "online" if s["online"] else "away"
        meta.append(f'<span class="conn conn-{on}" data-testid="conn-{index}">{word}</span>')
    if s["voted"]:
        meta.append('<span class="voted" title="Agreed to a new round">✓ again</span>')
    if s["away"]:
        meta.append(
            f'<span class="away-badge" data-testid="away-{index}"'
            ' title="Away: the computer plays for this player">away</span>'
        )
    if context["timed"] and s["active"]:
        if context["paused"]:
            meta.append(
                f'<span class="timer timer-paused" data-testid="timer-{index}">'
                f"{context['paused_left_s']} s · paused</span>"
            )
        elif context["deadline_ms"] and context["turn_is_person"]:
            meta.append(
                f'<span class="timer" data-deadline="{context["deadline_ms"]}"'
                f' data-testid="timer-{index}" data-mine="{1 if s["mine"] else 0}" role="timer"'
                f' aria-label="Time left to play">{game.timer_seconds} s</span>'
            )
    return meta
