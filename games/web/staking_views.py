"""The staked lobby (/staked/): open staked rooms, opening one, joining with one click, quick match.

Thin views: each POST (past its per-person limit, ludopat/throttle.py) calls one action of games.staking
and redirects (to the game, or a quick
match with nobody to pair with yet to its waiting screen, games/web/quick_waiting_views.py). A refused form
to open a room or play a quick match shows the lobby again with the form as it was sent and the refusal
next to its field; other refusals go back to the lobby with their sentence. The room list refreshes
itself (htmx) every few seconds.
"""

from __future__ import annotations

from typing import TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from accounts.ledger import history, rules
from accounts.ledger.errors import NotEnoughCoins
from ludopat import throttle
from ludopat.refusals import Refusal

from ..core import presence
from ..core.actors import actor_for
from ..core.errors import Conflict, GameError
from ..models import Game, Seat
from ..staking.keys import is_repeat
from ..staking.lobby_reads import bands, host_ratings, open_rooms, staked_records
from ..staking.quick import do_quick_match
from ..staking.rematch import do_offer_rematch
from ..staking.rooms import (
    do_cancel_staked_room,
    do_create_staked_room,
    do_join_staked_room,
    open_entry_of,
)
from ..staking.stake_limits import chosen_tier, limit_for, tier_choices
from .forms import VersionForm
from .htmx import HtmxHttpRequest
from .staking_forms import KeyedForm, QuickMatchForm, StakedRoomForm

LISTED = 100  # rooms shown at once
F = TypeVar("F", bound=forms.BaseForm)
# Each door's limit and why that rate: ludopat/throttle.py (DEFAULT_RATES).
TOO_MANY = {
    "staked_open": "Too many rooms opened: wait a few minutes before you open another.",
    "staked_join": "Too many presses of Join: wait a minute and try again.",
    "quick": "Too many quick-match presses: wait a minute and try again.",
    "rematch": "Too many rematch presses: wait a minute and try again.",
}


def _host_is_here(request: HtmxHttpRequest) -> None:
    """The lobby (and its refresh) counts as an open page for the player's waiting room or entry."""
    if request.user.is_authenticated:
        seat = (
            Seat.objects.filter(
                index=0, user=request.user, game__stake__gt=0, game__status=Game.Status.OPEN
            )
            .values_list("pk", "game_id")
            .first()
        )
        if seat:
            presence.seen_in_request(seat[1], [seat[0]])


def _rooms_context(request: HtmxHttpRequest) -> dict:
    _host_is_here(request)
    rooms = list(open_rooms(LISTED))
    records = staked_records({r.owner_id for r in rooms if r.owner_id is not None})
    ratings = host_ratings(rooms)
    limit = limit_for(request.user.pk) if request.user.is_authenticated else None
    for room in rooms:  # attributes for the template; a room with no owner has no record
        room.host_won, room.host_lost = records.get(room.owner_id, (0, 0))  # type: ignore[attr-defined,arg-type]
        room.join_key = KeyedForm().initial["key"]  # type: ignore[attr-defined]
        room.host_rating = ratings.get(room.pk)  # type: ignore[attr-defined]
        room.refusal = limit.refusal(room.stake) if limit else ""  # type: ignore[attr-defined]
    return {"rooms": rooms, "bands": bands(rooms), "limit": limit}


@require_safe
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    return lobby_page(request)


def lobby_page(
    request: HtmxHttpRequest,
    room_form: StakedRoomForm | None = None,
    quick_form: QuickMatchForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The lobby; with a refused form, that form as it was sent, its error next to its field (the
    POST views answer with it, so the GET-only check is `lobby`'s, not this one's)."""
    context = _rooms_context(request)
    # The configured cut: a page never says a number about money of its own.
    context["rake_percent"] = rules.rake_percent()
    if request.user.is_authenticated:
        quick_form = quick_form or QuickMatchForm()
        choices = tier_choices(context["limit"])
        context.update(
            room_form=room_form or StakedRoomForm(),
            quick_form=quick_form,
            tiers=choices,
            chosen_tier=chosen_tier(choices, quick_form["tier"].value()),
            mine=open_entry_of(request.user.pk),
            summary=history.summary(request.user.pk),
        )
    return render(request, "games/staked/lobby.html", context, status=status)


@require_safe
def rooms(request: HtmxHttpRequest) -> HttpResponse:
    """The room list alone, for the lobby's periodic refresh."""
    return render(request, "games/staked/_rooms.html", _rooms_context(request))


def _refused(request: HtmxHttpRequest, error: Refusal) -> HttpResponse:
    """A game's refusal or the ledger's (not enough coins): both are refusals with a sentence."""
    if request.htmx:  # a button on the game page: the sentence, which the page shows as a notice
        return HttpResponse(
            str(error), status=error.status, content_type="text/plain; charset=utf-8"
        )
    if error.status == 422:  # a form sent twice for different things: say so where it was sent
        context = {"message": str(error), "title": "That form was already used"}
        return render(request, "games/error.html", context, status=422)
    messages.error(request, str(error))
    return redirect("staked_lobby")


def too_many(request: HtmxHttpRequest, message: str) -> HttpResponse:
    """A door pressed past its limit (ludopat/throttle.py): 429, with the sentence."""
    if request.htmx:
        return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    context = {"message": message, "title": "Slow down"}
    return render(request, "games/error.html", context, status=429)


def _door_closed(request: HtmxHttpRequest, door: str, key: str) -> HttpResponse | None:
    """The refusal if this press of a staked door is one too many (a form sent again is not)."""
    if throttle.allow_door(door, request, repeat=is_repeat(request.user.pk, key)):
        return None
    return too_many(request, TOO_MANY[door])


def _bad_form(request: HtmxHttpRequest, form: forms.BaseForm) -> HttpResponse:
    return _refused(request, GameError(str(next(iter(form.errors.values()))[0])))


def _to(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:  # from the game page: load the page anew (the room has started or closed)
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
@require_POST
def create(request: HtmxHttpRequest) -> HttpResponse:
    form = StakedRoomForm(request.POST)
    if not form.is_valid():
        return lobby_page(request, room_form=form, status=400)
    data = form.cleaned_data
    if closed := _door_closed(request, "staked_open", data["key"]):
        return closed
    try:
        game = do_create_staked_room(
            actor_for(request.user, request.session),
            data["ruleset"],
            data["stake"],
            data["timer"],
            key=data["key"],
        )
    except Refusal as error:
        if error.status == 422:
            return _refused(request, error)
        return lobby_page(
            request, room_form=_with_refusal(form, "stake", error), status=error.status
        )
    return redirect(game)


def _with_refusal(form: F, stake_field: str, error: Refusal) -> F:
    """The form as sent, with the refusal next to the stake it is about (the rule set and timer are
    choices the form has checked already); "you already have a room" is about no field."""
    about_stake = isinstance(error, NotEnoughCoins) or not isinstance(error, Conflict)
    form.add_error(stake_field if about_stake else None, str(error))
    return form


@login_required
@require_POST
def join(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    form = KeyedForm(request.POST)
    if not form.is_valid():
        return _bad_form(request, form)
    if closed := _door_closed(request, "staked_join", form.cleaned_data["key"]):
        return closed
    actor = actor_for(request.user, request.session)
    try:
        game = do_join_staked_room(actor, game_id, key=form.cleaned_data["key"])
    except Refusal as error:
        return _refused(request, error)
    return _to(request, game.get_absolute_url())


@login_required
@require_POST
def cancel(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    form = VersionForm(request.POST)  # the page's version: a cancel never becomes a resignation
    if not form.is_valid():
        return _bad_form(request, form)
    actor = actor_for(request.user, request.session)
    try:
        game = do_cancel_staked_room(actor, game_id, version=form.cleaned_data["version"])
    except Refusal as error:
        return _refused(request, error)
    what = "Quick match" if game.quick else "Room"
    messages.success(
        request, f"{what} cancelled: your {game.stake:,} coins are back in your wallet."
    )
    return _to(request, reverse("staked_lobby"))


@login_required
@require_POST
def quick(request: HtmxHttpRequest) -> HttpResponse:
    form = QuickMatchForm(request.POST)
    if not form.is_valid():
        return lobby_page(request, quick_form=form, status=400)
    data = form.cleaned_data
    if closed := _door_closed(request, "quick", data["key"]):
        return closed
    try:
        game = do_quick_match(
            actor_for(request.user, request.session), data["tier"], data["ruleset"], data["key"]
        )
    except Refusal as error:
        if error.status == 422:
            return _refused(request, error)
        return lobby_page(
            request, quick_form=_with_refusal(form, "tier", error), status=error.status
        )
    if game.status == Game.Status.OPEN:  # nobody to pair with yet: the waiting screen
        return redirect("staked_quick_waiting", game.pk)
    return redirect(game)


@login_required
@require_POST
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    form = KeyedForm(request.POST)
    if not form.is_valid():
        return _bad_form(request, form)
    if closed := _door_closed(request, "rematch", form.cleaned_data["key"]):
        return closed
    actor = actor_for(request.user, request.session)
    try:
        game = do_offer_rematch(actor, game_id, key=form.cleaned_data["key"])
    except Refusal as error:
        return _refused(request, error)
    return _to(request, game.get_absolute_url())
