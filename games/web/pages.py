"""Read-only pages about games: how to play each rule set, replays, fair-dice verification.

Thin views: the replay is the engine replaying the game's record (`games.reads.records.record_for`), turned
into one JSON step per action for static/js/replay.js by games.reads.replay_page; verification happens in the browser
(static/js/verify.js) from the record the game page offers for download, so nobody has to trust the
server's word that its dice were fair.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_safe

from ludopat.read_replica import reads_from_replica

from ..core.public_rounds import round_by_public_id
from ..engine.state import EngineError
from ..live.board_view import board_context
from ..models import Game
from ..reads.records import public_record, record_for
from ..reads.replay_page import replay_data
from .forms import RoundForm

RULESETS: dict[str, dict[str, str]] = {
    "classic": {
        "title": "Classic",
        "summary": "The family game for 2 to 4 players: safe stars, pairs that can't be captured, "
        "a bonus roll for a 6, a capture or a token home. The first player home wins.",
    },
    "duel": {
        "title": "Duel",
        "summary": "Red against Blue from opposite corners. A capture sends the whole stack back "
        "to its yard, and only a 6 rolls again.",
    },
    "places": {
        "title": "Places",
        "summary": "Play on until every place is decided, scoring 10, 6, 3 and 0. Three 6s undo "
        "all three. Add UP Way pairs and hold-dice numbers if you like.",
    },
    "twodice": {
        "title": "Two dice",
        "summary": "The Nigerian game for two: two dice, two colours each, kill to get out, no safe "
        "squares, and the last seed runs the whole roll.",
    },
}


# ---------------------------------------------------------------------------------------------------
# How to play


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/pages/rules_index.html", {"rulesets": _ruleset_list()})


@require_safe
def rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    if ruleset not in RULESETS:
        return _not_found(
            request,
            "No such rule set",
            f"Ludopat has no rule set called “{ruleset}”. It plays classic, duel, places and "
            "twodice.",
            link=(reverse("rules_index"), "See every rule set"),
        )
    context = {"ruleset": ruleset, **RULESETS[ruleset], "rulesets": _ruleset_list()}
    return render(request, f"games/pages/rules/{ruleset}.html", context)


def _ruleset_list() -> list[dict[str, str]]:
    return [{"name": name, **info} for name, info in RULESETS.items()]


# ---------------------------------------------------------------------------------------------------
# Replay


@require_safe
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    found = _game_round(request, game_id, "game_replay", "Replay the latest round")
    if isinstance(found, HttpResponse):
        return found
    game, number = found
    current = game.round
    record = record_for(game) if number == current else record_for(game, number)
    context: dict[str, Any] = {
        "game_id": game_id,
        "game_url": _game_url(game_id),
        "round": number,
        "rounds": list(range(1, current + 1)) if current > 1 else [],
        "round_query": f"?round={number}" if number != current else "",
    }
    return _replay_page(request, record, number < current or game.is_over, context)


@require_safe
@reads_from_replica
def public_replay(request: HttpRequest, public_id: str) -> HttpResponse:
    """A finished round's replay under its public id: no room id, no link to the room, no chat."""
    kept = round_by_public_id(public_id)
    if kept is None:
        return _replay_not_found(request)
    context: dict[str, Any] = {
        "game_id": None,
        "game_url": None,
        "round": kept.number,
        "rounds": [],
        "record_url": reverse("public_record", args=[public_id]),
    }
    return _replay_page(request, public_record(kept), True, context)


@require_safe
@reads_from_replica
def public_record_json(request: HttpRequest, public_id: str) -> HttpResponse:
    """The round's record (docs/record.md) under its public id, in place of the room's id."""
    kept = round_by_public_id(public_id)
    if kept is None:
        return _replay_not_found(request)
    response = JsonResponse(public_record(kept), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="ludopat-{public_id}.json"'
    return response


def _replay_not_found(request: HttpRequest) -> HttpResponse:
    return _not_found(
        request,
        "No such replay",
        "There is no replay at this address. Check the link: every character counts.",
        link=(reverse("leaderboard"), "See the leaderboard"),
    )


def _replay_page(
    request: HttpRequest, record: dict[str, Any], over: bool, context: dict[str, Any]
) -> HttpResponse:
    try:
        data = replay_data(record)
    except EngineError as error:  # a record the engine refuses: say so rather than fail
        context["error"] = str(error)
        return render(request, "games/pages/replay.html", context)
    context.update(
        replay=data,
        ruleset_title=RULESETS.get(data["ruleset"], {}).get("title", data["ruleset"]),
        finished=data["finished"] or over,
        steps=data["steps"],
        **board_context({}),  # the empty board; replay.js draws the tokens of each step
    )
    return render(request, "games/pages/replay.html", context)


def _round_number(form: RoundForm, current: int) -> int | None:
    """The round asked for (the current one by default), or None if there is no such round."""
    if not form.is_valid():
        return None
    number = form.cleaned_data["round"]
    if number is None:
        return current
    return number if number <= current else None


# ---------------------------------------------------------------------------------------------------
# Verify


@require_safe
def verify(request: HttpRequest, game_id: str) -> HttpResponse:
    found = _game_round(request, game_id, "game_verify", "Verify the latest round")
    if isinstance(found, HttpResponse):
        return found
    game, number = found
    current = game.round
    record_url = _record_url(game_id)
    if number != current:
        record_url += f"?round={number}"
    context = {
        "game_id": game_id,
        "game_url": _game_url(game_id),
        "record_url": record_url,
        "round": number,
        "rounds": list(range(1, current + 1)) if current > 1 else [],
        "round_query": f"?round={number}" if number != current else "",
    }
    return render(request, "games/pages/verify.html", context)


# ---------------------------------------------------------------------------------------------------
# Helpers


def _game_round(
    request: HttpRequest, game_id: str, view: str, latest: str
) -> tuple[Game, int] | HttpResponse:
    """(game, round number asked for by ?round=), or the 404 page saying which is missing."""
    game = _game_or_none(game_id)
    if game is None:
        return _game_not_found(request, game_id)
    number = _round_number(RoundForm(request.GET), game.round)
    if number is None:
        return _not_found(
            request,
            "No such round",
            "This game has no round with that number.",
            link=(reverse(view, args=[game_id]), latest),
        )
    return game, number


def _game_or_none(game_id: str) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def _game_url(game_id: str) -> str | None:
    try:
        return reverse("game", args=[game_id])
    except NoReverseMatch:
        return None


def _record_url(game_id: str) -> str:
    try:
        return reverse("game_record", args=[game_id])
    except NoReverseMatch:
        return f"/games/{game_id}/record.json"


def _game_not_found(request: HttpRequest, game_id: str) -> HttpResponse:
    return _not_found(
        request,
        "No such game",
        "There is no game at this address. Check the link: game addresses are long and every "
        "character counts.",
        link=(reverse("home"), "Start a new game"),
    )


def _not_found(
    request: HttpRequest, title: str, message: str, link: tuple[str, str] | None = None
) -> HttpResponse:
    context = {"title": title, "message": message, "link": link}
    return render(request, "games/pages/not_found.html", context, status=404)
