"""Play now (/play-now/...): the press, the waiting screen and its poll, stopping.

Thin views: the press (past its per-account limit, ludopat/throttle.py) calls games.tables.waiting's
`do_play_now` and goes to the table if it was seated at once, else to the waiting screen. The screen
shows the player's own entry (one at a time, so its address needs no id and a reload finds it); its
status part polls every 2 s, which also keeps the entry (an entry nobody polls for 30 s stops,
games/tables/sweeper.py), and the page listens on the account's socket for the push that says the
table is ready (games.tables.waiting._tell_seated); either takes the player to the table.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from accounts.users.online import online_count
from ludopat import throttle
from ludopat.refusals import Refusal

from ..core.actors import actor_for
from ..models import Game
from ..tables import reads
from ..tables.models import TableWait
from ..tables.waiting import do_keep_waiting, do_play_now, do_stop_waiting
from .htmx import HtmxHttpRequest
from .tables_forms import PlayNowForm

TOO_MANY = "Too many presses of Play now: wait a minute and try again."
STOP_POLLING = 286  # htmx: swap this answer in, and poll no more


def _form_page(request: HtmxHttpRequest, form: PlayNowForm, status: int) -> HttpResponse:
    """A refused press: the form as it was sent, with its sentence."""
    return render(request, "games/tables/play_now.html", {"form": form}, status=status)


@login_required
@require_POST
def play_now(request: HtmxHttpRequest) -> HttpResponse:
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        return _form_page(request, form, 400)
    if not throttle.allow_door("play_now", request):
        context = {"message": TOO_MANY, "title": "Slow down"}
        return render(request, "games/error.html", context, status=429)
    kind = form.kind()
    try:
        entry = do_play_now(
            actor_for(request.user, request.session),
            kind.ruleset,
            kind.seats,
            kind.timer,
            dict(kind.options),
            form.cleaned_data["computers"],
        )
    except Refusal as error:
        form.add_error(None, str(error))
        return _form_page(request, form, error.status)
    if entry.status == TableWait.Status.SEATED and entry.game_id:
        return redirect(Game(pk=entry.game_id))
    return redirect("play_now_waiting")


def _me(request: HtmxHttpRequest) -> int:
    """The account asking (login_required has sent visitors to log in)."""
    user_id = request.user.pk if request.user.is_authenticated else None
    if user_id is None:
        raise PermissionError("login_required lets only accounts in")
    return int(user_id)


def _table_in_play(entry: TableWait | None) -> str | None:
    """The table a seated entry's player is at, while it plays."""
    if entry is None or entry.status != TableWait.Status.SEATED or entry.game_id is None:
        return None
    if Game.objects.filter(pk=entry.game_id, status=Game.Status.PLAYING).exists():
        return Game(pk=entry.game_id).get_absolute_url()
    return None


@login_required
@require_safe
def waiting(request: HtmxHttpRequest) -> HttpResponse:
    entry = reads.latest_entry(_me(request))
    table = _table_in_play(entry)
    if table:
        return redirect(table)
    if entry is not None and entry.status == TableWait.Status.WAITING:
        do_keep_waiting(_me(request))
    context = {
        "entry": entry,
        "progress": reads.progress(entry) if entry else None,
        "form": PlayNowForm(),
        "online": online_count(),  # the account's socket also carries the online count
    }
    return render(request, "games/tables/waiting.html", context)


@login_required
@require_safe
def status(request: HtmxHttpRequest) -> HttpResponse:
    """The screen's status part, for its poll; once seated, an htmx redirect to the table."""
    entry = reads.latest_entry(_me(request))
    table = _table_in_play(entry)
    if table:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = table
        return response
    if entry is not None and entry.status == TableWait.Status.WAITING:
        do_keep_waiting(_me(request))
    context = {"entry": entry, "progress": reads.progress(entry) if entry else None}
    response = render(request, "games/tables/_status.html", context)
    if entry is None or entry.status != TableWait.Status.WAITING:
        response.status_code = STOP_POLLING
    return response


@login_required
@require_POST
def stop(request: HtmxHttpRequest) -> HttpResponse:
    if do_stop_waiting(actor_for(request.user, request.session)) is not None:
        messages.success(request, "You stopped waiting for a table.")
    return redirect("play_now_waiting")
