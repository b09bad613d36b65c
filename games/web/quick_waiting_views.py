"""The quick-match waiting screen (/staked/quick/<id>): a player's entry while nobody is paired with it.

It shows the tier, the prize, the time waited, the range of ratings being searched (it widens as the
player waits) and who else waits or plays at that stake, with a cancel button. Its status part polls every couple of seconds (htmx): each poll counts as the player's page
being open (games.core.presence, for REQUEST_SECONDS), which is what keeps the entry from being withdrawn
(games.staking.sweeper.withdraw_unattended), so a reload, or a page closed for a few seconds, keeps
the entry; once paired, the poll sends the page to the game: the entry's own game, or the one the
sweeper seated its player in (the entry then closed, its stake staked there).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from ..core import presence
from ..models import Game, Seat
from ..staking import quick, quick_waiting_reads
from .htmx import HtmxHttpRequest

NOT_YOURS = "There is no quick-match entry of yours at this address: start one in the staked lobby."
STOP_POLLING = 286  # htmx: swap this answer in, and poll no more


def _entry_or_none(request: HtmxHttpRequest, game_id: str) -> Game | None:
    if not request.user.is_authenticated:  # (login_required has sent visitors to log in)
        return None
    return quick_waiting_reads.quick_entry(game_id, request.user.pk)


def _not_yours(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:
        return HttpResponse(NOT_YOURS, status=404, content_type="text/plain; charset=utf-8")
    context = {"message": NOT_YOURS, "title": "No such quick match"}
    return render(request, "games/error.html", context, status=404)


def _here(entry: Game) -> None:
    """The waiting screen is open: the player is at their entry (the host's seat)."""
    seat = Seat.objects.filter(game=entry, index=0).values_list("pk", flat=True).first()
    if seat is not None:
        presence.seen_in_request(entry.pk, [seat])


def _paired_game(entry: Game) -> str | None:
    """The address of the game the entry's player was paired into, if any."""
    if entry.status in (Game.Status.PLAYING, Game.Status.FINISHED):
        return entry.get_absolute_url()
    joined = quick.paired_into(entry)
    return None if joined is None else Game(pk=joined).get_absolute_url()


@login_required
@require_safe
def waiting(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    entry = _entry_or_none(request, game_id)
    if entry is None:
        return _not_yours(request)
    game_url = _paired_game(entry)
    if game_url:
        return redirect(game_url)
    if entry.status == Game.Status.OPEN:
        _here(entry)
    context = {"progress": quick_waiting_reads.progress(entry), "entry": entry}
    return render(request, "games/staked/quick_waiting.html", context)


@login_required
@require_safe
def status(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The screen's status part, for its poll; once paired, an htmx redirect to the game."""
    entry = _entry_or_none(request, game_id)
    if entry is None:
        return _not_yours(request)
    game_url = _paired_game(entry)
    if game_url:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = game_url
        return response
    if entry.status == Game.Status.OPEN:
        _here(entry)
    context = {"progress": quick_waiting_reads.progress(entry), "entry": entry}
    response = render(request, "games/staked/_quick_status.html", context)
    if entry.status != Game.Status.OPEN:  # cancelled or withdrawn: the page says so and stops
        response.status_code = STOP_POLLING
    return response
