"""Challenges' pages: the form on a player's profile (/u/<name>/challenge/), a challenge's own page,
and the answers (Accept, Decline, Withdraw), pressed on a notice (htmx: the answer comes back in the
notice's place, an accept sends the page to the room) or on a page's form (a redirect with a message).

Thin views: each POST, past its per-account limit (ludopat/throttle.py), calls one service of
games.challenges and turns a refusal into its sentence.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.models import User
from accounts.social.reads import followed_ids, follows
from ludopat import throttle
from ludopat.refusals import Refusal

from ..challenges import live, reads
from ..challenges.answers import do_accept, do_decline, do_withdraw
from ..challenges.issuing import do_challenge, do_invite
from ..challenges.models import Challenge
from ..challenges.rules import terms_for
from ..core.actors import Actor, actor_for
from ..core.errors import GameError
from ..models import Game
from .challenge_forms import ChallengeForm, InviteForm
from .htmx import HtmxHttpRequest

TOO_MANY = {
    "challenge": "Too many challenges: wait a few minutes before you send another.",
    "challenge_answer": "Too many presses: wait a minute and try again.",
}


def _too_many(request: HtmxHttpRequest, kind: str) -> HttpResponse | None:
    """The refusal if this account pressed `kind` too often (counted per account and browser)."""
    asker = throttle.asker_for_request(request)
    if throttle.check(kind, throttle.Asker("", asker.session, asker.account)):
        return None
    if request.htmx:
        return HttpResponse(TOO_MANY[kind], status=429, content_type="text/plain; charset=utf-8")
    return render(
        request, "games/error.html", {"message": TOO_MANY[kind], "title": "Slow down"}, status=429
    )


def _me(request: HtmxHttpRequest) -> int:
    """The signed-in player's id (every view here is for accounts)."""
    return int(request.user.pk or 0)


def _form_page(
    request: HtmxHttpRequest, username: str, form: ChallengeForm, status: int = 200
) -> HttpResponse:
    table = reads.open_table_of(_me(request))
    context = {
        "name": username,
        "form": form,
        "table": table if table and follows(_me(request), _id_of(username)) else None,
        "invite_form": InviteForm(initial={"room": table.room_id}) if table else None,
    }
    return render(request, "games/challenges/form.html", context, status=status)


def _id_of(username: str) -> int:
    found = User.objects.filter(username__iexact=username).values_list("pk", flat=True).first()
    return found or 0


@login_required
@require_http_methods(["GET", "POST"])  # anything else: 405 with Allow and a sentence
def challenge(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """The form to challenge `username`; its POST makes the challenge and shows its page."""
    if request.method != "POST":
        return _form_page(request, username, ChallengeForm())
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _form_page(request, username, form, status=400)
    if closed := _too_many(request, "challenge"):
        return closed
    data = form.cleaned_data
    try:
        terms = terms_for(
            data["ruleset"],
            data["players"],
            data["timer"],
            rated=data["kind"] != "unrated",
            stake=data["stake"] if data["kind"] == "staked" else None,
            options=form.options(),
        )
        made = do_challenge(actor_for(request.user, request.session), username, terms)
    except Refusal as error:
        form.add_error(None, str(error))
        return _form_page(request, username, form, status=error.status)
    return redirect("challenge_page", made.pk)


@login_required
@require_POST
def invite(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """The host of a waiting 4-seat table invites `username` to it."""
    form = InviteForm(request.POST)
    if closed := _too_many(request, "challenge"):
        return closed
    try:
        if not form.is_valid():
            raise GameError("This form is out of date: reload the page and try again.")
        made = do_invite(
            actor_for(request.user, request.session), form.cleaned_data["room"], username
        )
    except Refusal as error:
        messages.error(request, str(error))
        return redirect("challenge", username)
    return redirect("challenge_page", made.pk)


@require_safe
@login_required
def page(request: HtmxHttpRequest, challenge_id: int) -> HttpResponse:
    """A challenge's own page, for its two players: what it offers and what became of it."""
    found = reads.challenge_for(_me(request), challenge_id)
    if found is None:
        missing = {"message": "There is no such challenge of yours.", "title": "No such challenge"}
        return render(request, "games/error.html", missing, status=404)
    mine = found.challenger_id == _me(request)
    context: dict[str, object] = {
        "challenge": found,
        "mine": mine,
        "terms": live.terms_of(found).describe(),
        "answer": live.answer_texts(found)[0 if mine else 1],
        "waiting": found.status == Challenge.Status.PENDING,
        "friends": _friends_to_invite(found) if mine else [],
    }
    return render(request, "games/challenges/challenge.html", context)


def _friends_to_invite(found: Challenge) -> list[str]:
    """The players the host follows, while their 4-seat table waits with a seat open."""
    table = reads.open_table_of(found.challenger_id)
    if table is None or table.room_id != found.room_id:
        return []
    names = User.objects.filter(pk__in=followed_ids(found.challenger_id), is_active=True)
    return list(names.order_by("username").values_list("username", flat=True)[:20])


def _answer(
    request: HtmxHttpRequest, challenge_id: int, service: Callable[[Actor, int], Game | Challenge]
) -> HttpResponse:
    if closed := _too_many(request, "challenge_answer"):
        return closed
    actor = actor_for(request.user, request.session)
    try:
        result = service(actor, challenge_id)
    except Refusal as error:
        found = reads.challenge_for(_me(request), challenge_id)
        if request.htmx:  # in the notice's place: the sentence (site.js swaps a refused notice)
            if found is None:
                return HttpResponse(str(error), status=error.status, content_type="text/plain")
            return HttpResponse(live.render_answer(found, str(error)), status=error.status)
        messages.error(request, str(error))
        return redirect("challenge_page", challenge_id) if found else redirect("home")
    if isinstance(result, Challenge):  # declined or withdrawn
        found = reads.challenge_for(_me(request), challenge_id)
        text = live.answer_texts(result)[0 if result.challenger_id == _me(request) else 1]
        if request.htmx:
            return HttpResponse(live.render_answer(found or result, text))
        messages.success(request, text)
        return redirect("challenge_page", challenge_id)
    url = result.get_absolute_url()  # accepted: the room
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
@require_POST
def accept(request: HtmxHttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenge_id, do_accept)


@login_required
@require_POST
def decline(request: HtmxHttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenge_id, do_decline)


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenge_id, do_withdraw)
