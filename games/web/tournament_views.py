"""The tournaments' pages: the lobby (/tournaments/: registering with each one's prize split, in play,
finished), the bracket (/tournaments/<id>/, live over its socket: games/web/tournament_consumer.py's
TournamentConsumer), and the POSTs to open one, register, leave and forfeit.

Thin views: each POST calls one service of games.tournaments and redirects; a refusal comes back to the
page it was sent from with its sentence.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from accounts.ledger import history
from accounts.models import User
from accounts.moderation.reports import do_report_tournament_message
from accounts.users.sanctions import mute_notice
from ludopat import throttle
from ludopat.refusals import Refusal

from ..actions.chat import QUICK_PHRASES
from ..core.actors import actor_for
from ..staking.stake_limits import limit_for, tier_choices
from ..tournaments import chat as tournament_chat
from ..tournaments import reads, registration
from ..tournaments.models import Tournament
from ..tournaments.rules import SIZES, buy_ins
from .commands import cleaned
from .forms import ChatForm, ReportForm
from .htmx import HtmxHttpRequest
from .staking_views import too_many

TOO_MANY_OPENED = "Too many tournaments opened: wait a few minutes before you open another."


class OpenTournamentForm(forms.Form):
    size = forms.TypedChoiceField(choices=[(s, f"{s} players") for s in SIZES], coerce=int)
    buy_in = forms.TypedChoiceField(choices=[], coerce=int, label="Buy-in")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["buy_in"].choices = [(b, f"{b:,} coins") for b in buy_ins()]  # type: ignore[attr-defined]


class ChoiceAskedForm(forms.Form):
    """The size and buy-in a lobby link asks to preview: anything else is not asked for (None)."""

    size = forms.IntegerField(required=False, min_value=0, max_value=10_000)
    buy_in = forms.IntegerField(required=False, min_value=0, max_value=10**9)

    def asked(self) -> tuple[int | None, int | None]:
        if not self.is_valid():
            return None, None
        return self.cleaned_data["size"], self.cleaned_data["buy_in"]


def _chosen(raw: int | None, allowed: list[int], default: int | None) -> int | None:
    return raw if raw in allowed else default


def _opening(request: HtmxHttpRequest) -> dict[str, object]:
    """The opening form's choices: each size, each buy-in with why this player can't use it now (a
    new account's cap, a short wallet: the staked lobby's rule), the ones chosen (asked for in the
    query, else 4 players at the first buy-in they may use) and the prize table of that choice."""
    limit = tier_choices(limit_for(request.user.pk)) if request.user.is_authenticated else None
    choices = limit or tier_choices(None)
    open_ones = [choice.tier for choice in choices if not choice.refusal]
    size_asked, buy_in_asked = ChoiceAskedForm(request.GET).asked()
    size = _chosen(size_asked, list(SIZES), SIZES[0]) or SIZES[0]
    buy_in = _chosen(buy_in_asked, open_ones, open_ones[0] if open_ones else None)
    shown = buy_in if buy_in is not None else choices[0].tier
    return {
        "sizes": SIZES,
        "buy_ins": choices,
        "size": size,
        "buy_in": buy_in,
        "preview": reads.split_for(size, shown),
        "preview_size": size,
    }


@require_safe
def lobby(request: HtmxHttpRequest, form: OpenTournamentForm | None = None) -> HttpResponse:
    user_id = request.user.pk if request.user.is_authenticated else None
    context = reads.lobby(user_id)
    context["form"] = form or OpenTournamentForm()
    context.update(_opening(request))
    if user_id is not None:
        context["summary"] = history.summary(user_id)
    return render(request, "games/tournaments/lobby.html", context)


@require_safe
def prize_preview(request: HtmxHttpRequest) -> HttpResponse:
    """The prize table of a size and buy-in, as the opening form previews it (htmx, on change)."""
    return render(request, "games/tournaments/_prize_preview.html", _opening(request))


def _tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).select_related("pool").first()
    if found is None:
        raise Http404("There is no such tournament.")
    return found


def bracket_context(tournament: Tournament, user_id: int | None) -> dict[str, object]:
    view = reads.bracket(tournament)
    mine = next((e for e in view.entries if e.user_id == user_id), None)
    me = reads.my_part(tournament, user_id) if mine is not None else None
    return {"view": view, "t": view.tournament, "mine": mine, "me": me}


def chat_context(tournament: Tournament, user: User | AnonymousUser) -> dict[str, object]:
    """The chat panel: its lines, what this viewer may write now, and why not (a banned account's
    session ends at its next request, so it reads as a guest)."""
    user_id = user.pk if user.is_authenticated else None
    return {
        "chat_messages": tournament_chat.messages(tournament, viewer_id=user_id),
        "chat_mode": tournament_chat.mode_for(tournament, user_id),
        "quick_phrases": QUICK_PHRASES,
        "viewer_id": user_id,
        "reported": tournament_chat.reported_by(tournament, user_id),
        "muted": mute_notice(user) if isinstance(user, User) else "",
    }


@require_safe
def bracket(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    user_id = request.user.pk if request.user.is_authenticated else None
    context = bracket_context(tournament, user_id)
    context["ws_url"] = f"/ws/tournaments/{tournament.pk}/"
    context.update(chat_context(tournament, request.user))
    return render(request, "games/tournaments/bracket.html", context)


def _refused(request: HtmxHttpRequest, error: Refusal, back: str) -> HttpResponse:
    messages.error(request, str(error))
    return redirect(back)


@login_required
@require_POST
def open_one(request: HtmxHttpRequest) -> HttpResponse:
    """Open a tournament at a size and buy-in, registered in it (both or neither). Limited per person
    (ludopat/throttle.py, "tournament_open": why that rate)."""
    form = OpenTournamentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a size and a buy-in.")
        return redirect("tournaments")
    if not throttle.allow_door("tournament_open", request):
        return too_many(request, TOO_MANY_OPENED)
    actor = actor_for(request.user, request.session)
    try:
        tournament = registration.do_open_tournament(
            actor, form.cleaned_data["size"], form.cleaned_data["buy_in"]
        )
    except Refusal as error:
        return _refused(request, error, "tournaments")
    return redirect("tournament", tournament.pk)


@login_required
@require_POST
def join(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    try:
        registration.do_register(actor_for(request.user, request.session), tournament_id)
    except Refusal as error:
        return _refused(request, error, "tournaments")
    return redirect("tournament", tournament_id)


@login_required
@require_POST
def leave(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    try:
        registration.do_leave(actor_for(request.user, request.session), tournament_id)
    except Refusal as error:
        return _refused(request, error, f"/tournaments/{tournament_id}/")
    messages.success(request, "You left the tournament: your buy-in is back in your wallet.")
    return redirect("tournaments")


@login_required
@require_POST
def forfeit(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    try:
        registration.do_forfeit(actor_for(request.user, request.session), tournament_id)
    except Refusal as error:
        return _refused(request, error, f"/tournaments/{tournament_id}/")
    messages.success(request, "You forfeited your matches; your buy-in stays in the pot.")
    return redirect("tournament", tournament_id)


@login_required
@require_POST
def chat(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """A line of the tournament's chat; it reaches every open page (the sender's too) over the
    bracket's socket, so htmx's answer is only the refusal's sentence, or nothing."""
    try:
        text = cleaned(ChatForm(request.POST))["text"]
        tournament_chat.do_tournament_chat(
            tournament_id, actor_for(request.user, request.session), text
        )
    except Refusal as error:
        if request.htmx:
            return HttpResponse(str(error))  # shown under the form (a 2xx, so htmx swaps it in)
        return _refused(request, error, f"/tournaments/{tournament_id}/")
    if request.htmx:
        return HttpResponse("")
    return redirect("tournament", tournament_id)


@login_required
@require_POST
def report(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """A line of the tournament's chat reported to the moderators; its Report button reads Reported."""
    form = ReportForm(request.POST)
    if not form.is_valid():
        raise Http404("There is no such message.")
    message_id = form.cleaned_data["message"]
    try:
        do_report_tournament_message(
            tournament_id,
            actor_for(request.user, request.session),
            message_id=message_id,
            reason=form.cleaned_data["reason"],
        )
    except Refusal as error:
        if request.htmx:
            return HttpResponse(str(error), status=error.status)
        return _refused(request, error, f"/tournaments/{tournament_id}/")
    if request.htmx:
        return render(request, "games/tournaments/_reported.html", {"message_id": message_id})
    messages.success(request, "Reported: the moderators will read it.")
    return redirect("tournament", tournament_id)
