"""The wallet page: balance, coins in escrow, the ledger history, and the daily top-up."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from ludopat.numbers import page_in
from ludopat.refusals import Refusal

from ..ledger import grants, history
from .logged_in import account_of

PER_PAGE = 25


@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    account = account_of(request)
    page = Paginator(history.history(account.pk), PER_PAGE).get_page(page_in(request.GET))
    context = {"summary": history.summary(account.pk), "page": page}
    return render(request, "accounts/wallet.html", context)


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
