"""The welcome a new account reads on the first page after sign-up: what its coins are for and where to
start. A message (django.contrib.messages), so it shows once on whichever page sign-up led to: the home
page, or the room a guest was invited to."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from ..ledger import rules


def welcome(request: HttpRequest, username: str) -> None:
    messages.success(
        request,
        format_html(
            'Welcome to Ludopat, {}! Your wallet holds <strong data-testid="welcome-coins">{} coins'
            '</strong>: stakes for <a href="{}">staked rooms and quick match</a> and buy-ins for '
            '<a href="{}">tournaments</a>, where the winners take the pot. Games against the '
            'computer and with friends are free: start one from the <a href="{}">home page</a>. '
            'Run low, and <a href="{}">your wallet</a> gives a top-up back to {} coins once a day.',
            username,
            f"{rules.grant():,}",
            reverse("staked_lobby"),
            reverse("tournaments"),
            reverse("home"),
            reverse("wallet"),
            f"{rules.top_up_to():,}",
        ),
        extra_tags="welcome",
    )
