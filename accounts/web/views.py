from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.core.errors import GameError
from games.tournaments.reads import finish_name, finishes_of
from leaderboard.player import player_page
from ludopat import throttle
from ludopat.next_url import next_in
from ludopat.numbers import page_in
from ludopat.read_replica import reads_from_replica

from ..models import User
from ..moderation.reports import do_report_player
from ..social.reads import relation
from .forms import ReportPlayerForm, SignUpForm
from .welcome import welcome

TOO_MANY_SIGNUPS = "Too many new accounts from your connection: try again in an hour."
TOO_MANY_RESETS = "Too many password reset requests: try again in an hour."
PLAYERS_LIKE = 10  # names offered on a player-not-found page


def _safe_next(request: HttpRequest) -> str | None:
    return next_in(request.POST, request) or next_in(request.GET, request)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in; `next` brings a guest back to the room they came from."""
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid() and not throttle.check("signup", throttle.asker_for_request(request)):
            form.add_error(None, TOO_MANY_SIGNUPS)
            context = {"form": form, "next": _safe_next(request)}
            return render(request, "registration/signup.html", context, status=429)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            welcome(request, user.username)
            return redirect(_safe_next(request) or "home")
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


@require_safe
@reads_from_replica
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        return _player_not_found(request, username)
    context = player_page(player, page_in(request.GET))
    context["tournaments"] = [(entry, finish_name(entry)) for entry in finishes_of(player.pk)]
    if request.user.is_authenticated and request.user.pk != player.pk:
        context["relation"] = relation(
            request.user.pk, player.pk
        )  # Follow, Block and their undoing
    return render(request, "accounts/profile.html", context)


def _player_not_found(request: HttpRequest, username: str) -> HttpResponse:
    """A mistyped or gone player: say so, offer the players whose names come close, and a search."""
    close = (
        User.objects.filter(is_active=True, username__icontains=username[:40])
        .order_by("username")
        .values_list("username", flat=True)[:PLAYERS_LIKE]
    )
    context = {"username": username, "close": list(close)}
    return render(request, "accounts/player_not_found.html", context, status=404)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, limited per connection, browser, account and mailbox: each request sends
    an email, so a flood would spam a player's inbox (and our mail sender's reputation)."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        request = self.request
        mailbox = throttle.Asker("", session=f"mail:{form.cleaned_data['email'].lower()}")
        allowed = throttle.check("password_reset", throttle.asker_for_request(request))
        if not (throttle.check("password_reset", mailbox) and allowed):
            form.add_error(None, TOO_MANY_RESETS)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


@login_required
@require_POST
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """A player reports another from their profile; the moderators see it in the reports queue."""
    player = get_object_or_404(User, username=username, is_active=True)
    form = ReportPlayerForm(request.POST)
    try:
        if not form.is_valid():
            raise GameError(str(next(iter(form.errors.values()))[0]))
        do_report_player(request.user, player, reason=form.cleaned_data["reason"])
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Thank you: a moderator will look at your report of {username}.")
    return redirect("profile", username=player.username)
