"""The wallet page: balance, coins in escrow, the ledger history, and the daily top-up."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from games.tournaments.reads import of_pools
from ludopat.numbers import page_in
from ludopat.refusals import Refusal

from ..ledger import grants, history
from .logged_in import account_of

PER_PAGE = 25


@require_safe
@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    account = account_of(request)
    page = Paginator(history.history(account.pk), PER_PAGE).get_page(page_in(request.GET))
    _name_tournaments(page.object_list, account.pk)
    context = {"summary": history.summary(account.pk), "page": page}
    return render(request, "accounts/wallet.html", context)


def _name_tournaments(entries: Iterable[Any], user_id: int) -> None:
    """A line that moved coins in or out of a tournament's pool links the tournament; of its prize
    lines only the winner's mentions the house's cut (taken from the pot once, not from each share)."""
    tournaments = of_pools(entry.pool for entry in entries if entry.pool)
    for entry in entries:
        if entry.pool in tournaments:
            entry.tournament_id, winner = tournaments[entry.pool]
            if winner != user_id:
                entry.rake = None


@login_required
@require_POST
def top_up(request: HttpRequest) -> HttpResponse:
    try:
        added = grants.claim_top_up(account_of(request).pk)
    except Refusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"{added:,} coins added to your wallet.")
    return redirect("wallet")
