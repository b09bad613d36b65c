"""Thin views: parse, call an action, answer with the live fragment (htmx) or a redirect.

Refusals are 4xx with a sentence a player can read, never a 500: 400 bad parameters, 403 not yours,
404 no such game, 409 not now (out of turn, stale version: the answer carries the current board), 429 a
flood of requests.
"""

from __future__ import annotations

import time

from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ludopat import metrics, throttle
from ludopat.client_json import BadJson, action_fields
from ludopat.next_url import next_in
from ludopat.refusals import Refusal

from .. import actions
from ..actions.core import NO_GAME
from ..core import broadcast, caches, presence, selectors
from ..core.actors import Actor, actor_for
from ..core.errors import GameError
from ..live.fragments import answer_board, for_page_showing, render_live, with_page_token
from ..live.presenter import chat_context
from ..live.viewpoint import viewpoint_for
from ..models import Game, Seat
from ..reads.records import record_for
from ..staking.quick import paired_into
from ..tournaments.reads import match_link
from . import commands
from .forms import ComputerGameForm, FriendsRoomForm, LocalGameForm, RoundForm, SetupForm
from .htmx import HtmxHttpRequest

# Keyed by the mode as the URL gives it (a Game.Mode value is that string).
MODE_FORMS: dict[str, type[SetupForm]] = {
    Game.Mode.COMPUTER: ComputerGameForm,
    Game.Mode.LOCAL: LocalGameForm,
    Game.Mode.FRIENDS: FriendsRoomForm,
}
MODE_TITLES: dict[str, str] = {
    Game.Mode.COMPUTER: "Play vs computer",
    Game.Mode.LOCAL: "Pass & play",
    Game.Mode.FRIENDS: "Private room with friends",
}
NOT_FOUND = NO_GAME


def _actor(request: HtmxHttpRequest) -> Actor:
    return actor_for(request.user, request.session)


def _not_found(request: HtmxHttpRequest, message: str = NOT_FOUND) -> HttpResponse:
    if request.htmx:
        return HttpResponse(message, status=404, content_type="text/plain; charset=utf-8")
    return render(
        request, "games/error.html", {"message": message, "title": "No such game"}, status=404
    )


@require_http_methods(["GET", "POST"])  # anything else: 405 with Allow and a sentence
def new_game(request: HtmxHttpRequest, mode: str) -> HttpResponse:
    """GET: the setup screen of a mode. POST: create the game and open it."""
    if mode not in MODE_FORMS:
        return render(
            request,
            "games/error.html",
            {"message": "There is no such way to play.", "title": "Not found"},
            status=404,
        )
    form_class = MODE_FORMS[mode]
    if mode == Game.Mode.FRIENDS and not request.user.is_authenticated:
        if request.method == "POST":
            return render(
                request,
                "games/error.html",
                {"message": "Log in to open a room for friends.", "title": "Log in first"},
                status=403,
            )
        return redirect(f"{reverse('login')}?next={request.path}")
    if request.method == "POST":
        form = form_class(request.POST)
        if form.is_valid():
            actor = _actor(request)
            if not throttle.check("new_game", throttle.asker_for_request(request, actor.key)):
                return _too_many(request, "Too many new games at once: wait a few minutes.")
            try:
                timer = form.timer_spec() if hasattr(form, "timer_spec") else None
                game = actions.create_game(
                    actor,
                    mode,
                    form.cleaned_data["ruleset"],
                    form.options(),
                    form.seat_specs(),
                    timer,
                )
            except GameError as error:
                form.add_error(None, str(error))
            else:
                return redirect("game", game.pk)
        status = 400
    else:
        form = form_class()
        status = 200
    return render(
        request,
        "games/setup.html",
        {"form": form, "mode": mode, "title": MODE_TITLES[mode]},
        status=status,
    )


def _load(game_id: str) -> tuple[Game | None, list[Seat]]:
    return selectors.game_and_seats(game_id)


@require_safe
def game_page(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game, seats = _load(game_id)
    if game is None:
        return _not_found(request)
    actor = _actor(request)
    vp = viewpoint_for(game, seats, actor)
    if game.quick and game.status == Game.Status.OPEN and vp.host:  # nobody paired yet
        return redirect("staked_quick_waiting", game.pk)
    if game.quick and game.status == Game.Status.ABANDONED and vp.host:
        joined = paired_into(game)  # the sweeper seated its player in another entry's game
        if joined is not None:
            return redirect("game", joined)
    context = {
        "game": game,
        "vp": vp,
        # This viewer's own CSRF token in the board's forms, for a browser without JavaScript.
        "live": with_page_token(render_live(game, vp, seats=seats), get_token(request)),
        "invite_url": request.build_absolute_uri(game.get_absolute_url()),
        "login_next": f"{reverse('login')}?next={game.get_absolute_url()}",
        "signup_next": f"{reverse('signup')}?next={game.get_absolute_url()}",
        "ws_url": f"/ws/games/{game.pk}/",
        "server_now_ms": int(time.time() * 1000),
        "tournament": match_link(game),
        **chat_context(game, seats, actor),
    }
    return render(request, "games/game.html", context)


@require_safe
def live(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The live fragment alone: a client that lost track of the version fetches the whole board."""
    game, seats = _load(game_id)
    if game is None:
        return _not_found(request)
    actor = _actor(request)
    presence.seen_acting(game, seats, actor)  # a page without a WebSocket polls: its player is here
    vp = viewpoint_for(game, seats, actor)
    return HttpResponse(render_live(game, vp, seats=seats))


def _too_many(
    request: HtmxHttpRequest,
    message: str = "Too many actions at once: wait a moment and try again.",
) -> HttpResponse:
    if request.htmx:
        return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    return render(
        request, "games/error.html", {"message": message, "title": "Slow down"}, status=429
    )


@require_POST
def action(request: HtmxHttpRequest, game_id: str, name: str) -> HttpResponse:
    # Timed until its push (ludopat/metrics.py). Presence is read once for the whole request (the
    # action, its push, its answer), in the rate limit's round trip to Redis (games.core.presence).
    with metrics.timing_action(name, via="post"), presence.read_once():
        return _act(request, game_id, name)


def _act(request: HtmxHttpRequest, game_id: str, name: str) -> HttpResponse:
    actor = _actor(request)
    asker = throttle.asker_for_request(request, actor.key)
    if not throttle.allow_action(game_id, asker, also=presence.Reading(game_id)):
        return _too_many(request)
    try:
        data = action_fields(request)
    except BadJson as error:
        return _refused(request, game_id, actor, GameError(str(error)))
    # Unlocked, at the version the action names where this process kept it, else read: who is asking
    # is checked on it, and a player who acts by plain POSTs is present (before the action, which may
    # wait for absent players).
    seen = commands.seen_for(game_id, data)
    presence.seen_acting(*seen, actor)
    # An htmx POST's answer carries the new board: the page's own socket (named in the header) skips it.
    socket = request.headers.get("X-Live-Socket", "") if request.htmx else ""
    try:
        with broadcast.answering(socket) as answer:
            done = commands.run(name, game_id, actor, data, seen)
    except (
        Refusal
    ) as error:  # the games' refusals, and the ledger's (a stake the wallet can't hold)
        return _refused(request, game_id, actor, error)
    if not request.htmx:
        target = next_in(request.POST, request)  # only our own pages (ludopat/next_url.py)
        if target and target.startswith("/"):
            return redirect(target)
        return redirect("game", game_id)
    # The version the action made, as it made it: a roll or a move committed its objects in this very
    # thread (read as they are, as its push's renders read them) and kept its rows
    # (games.core.caches.ROWS) for this process's other readers; any other action's are read afresh,
    # and that read is kept for the sockets' renders of the same version.
    if isinstance(done, Game):
        game, seats = caches.committed_rows((game_id, done.version)) or selectors.game_and_seats_at(
            game_id, done.version
        )
    else:
        game, seats = _load(game_id)
    if game is None:  # games are never deleted; for mypy
        return _not_found(request)
    key = (game_id, game.version)  # as the push of this version stamped it and read presence
    vp = viewpoint_for(game, seats, actor)
    tag, here = answer.tags.get(key), answer.presence.get(key)
    board = answer_board(game, vp, seats=seats, tag=tag, connected=here)
    # The page names the board's ground it shows: the answer leaves it out if it is this one.
    return HttpResponse(for_page_showing(board.whole(), request.headers.get("X-Board-Ground")))


def _refused(request: HtmxHttpRequest, game_id: str, actor: Actor, error: Refusal) -> HttpResponse:
    message = str(error)
    game, seats = _load(game_id) if error.status != 404 else (None, [])
    if request.htmx:
        if error.status == 409 and game is not None:
            # Not now: the answer is the current board with the reason on it, so the client resyncs.
            vp = viewpoint_for(game, seats, actor)
            html = render_live(game, vp, seats=seats, notice=message)
            return HttpResponse(html, status=409)
        return HttpResponse(message, status=error.status, content_type="text/plain; charset=utf-8")
    context = {"message": message, "title": "That didn't work", "game": game}
    return render(request, "games/error.html", context, status=error.status)


@require_safe
def record_json(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return JsonResponse({"error": NOT_FOUND}, status=404)
    form = RoundForm(request.GET)
    round_number = form.cleaned_data["round"] if form.is_valid() else 0
    if round_number is not None and not 1 <= round_number <= game.round:
        return JsonResponse({"error": "There is no such round in this game."}, status=404)
    record = record_for(game, round_number)
    response = JsonResponse(record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="ludopat-{game.pk}.json"'
    return response
