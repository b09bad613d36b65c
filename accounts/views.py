from django.contrib.auth import login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from leaderboard.history import player_history, total_points

from .forms import SignUpForm
from .models import User


def _safe_next(request) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and log straight in; `next` brings a guest back to the room they came from."""
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_safe_next(request) or "home")
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


def profile(request, username: str):
    player = get_object_or_404(User, username=username, is_active=True)
    points, played = total_points(player)
    context = {
        "player": player,
        "history": player_history(player),
        "points": points,
        "played": played,
    }
    return render(request, "accounts/profile.html", context)
