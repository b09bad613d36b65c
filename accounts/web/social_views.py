"""Follows and blocks: the Friends page, and the POSTs that follow, unfollow, block and unblock a player
(from their profile, the Friends page, or a finished game's panel of the other players).

Thin views: each press is limited per person (`throttle.allow_door`: "follow", "block"), then calls
one service of accounts.social, whose refusals (yourself, a banned or missing player, a block between
the two) are told in a sentence: a message on the page a plain form goes back to, or, in a game's
panel (htmx), the panel again with the sentence in it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from games.models import Game
from games.reads.friends import blocked_players, friends_of, table_mates
from ludopat import throttle
from ludopat.next_url import next_in
from ludopat.refusals import Refusal

from ..social import blocks, follows, targets
from ..social.errors import SocialError
from .forms import SocialForm

TOO_MANY = {
    "follow": "You're following and unfollowing too fast: wait a few minutes.",
    "block": "You're blocking and unblocking too fast: wait a few minutes.",
}


def _me(request: HttpRequest) -> int:
    """The logged-in account's id (the views are login_required)."""
    pk = request.user.pk
    assert pk is not None  # noqa: S101  (login_required let only an account through)
    return pk


# The method is checked before the log-in: a POST is refused (405) for anyone, never sent to log in.
@require_safe
@login_required
def friends(request: HttpRequest) -> HttpResponse:
    """The people this player follows, online first, each with the game they play to watch; the
    players they blocked."""
    context = {
        "friends": friends_of(_me(request)),
        "blocked": blocked_players(_me(request)),
    }
    return render(request, "accounts/friends.html", context)


def _press(
    kind: str, service: Callable[[int, int], bool], done: str, again: str
) -> Callable[[HttpRequest, str], HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, username: str) -> HttpResponse:
        form = SocialForm(request.POST)
        form.is_valid()  # both fields optional: a bad one is just left out
        game_id = form.cleaned_data.get("game", "")
        status, notice, ok = 200, "", True
        try:
            if not throttle.allow_door(kind, request):
                raise SocialError(TOO_MANY[kind], status=429)
            player = targets.player_named(username)
            changed = service(_me(request), player.pk)
            notice = (done if changed else again).format(name=player.username)
        except Refusal as refusal:
            status, notice, ok = refusal.status, str(refusal), False
        if game_id and getattr(request, "htmx", False):
            return _panel(request, game_id, notice, status)
        (messages.success if ok else messages.error)(request, notice)
        target = next_in(request.POST, request)
        # A plain redirect to the address (`redirect` would read "-1" as a URL name).
        return HttpResponseRedirect(target) if target else redirect("profile", username=username)

    return view


def _panel(request: HttpRequest, game_id: str, notice: str, status: int) -> HttpResponse:
    """A finished game's panel of the other players, with what the press did (or why not)."""
    game = Game.objects.filter(pk=game_id).first()
    mates = table_mates(game, _me(request)) if game is not None else []
    context = {"game": game, "mates": mates, "notice": notice, "refused": status >= 400}
    # 200 even for a refusal: htmx swaps the panel only for a success, and the sentence is in it.
    return render(request, "games/live_now/_follow_players.html", context)


follow = _press(
    "follow",
    follows.do_follow,
    "You follow {name} now: they are on your Friends page.",
    "You already follow {name}.",
)
unfollow = _press(
    "follow", follows.do_unfollow, "You no longer follow {name}.", "You don't follow {name}."
)
block = _press(
    "block",
    blocks.do_block,
    "You blocked {name}: you won't see their chat, they can't follow or challenge you, and no "
    "public table seats you together.",
    "You had already blocked {name}.",
)
unblock = _press("block", blocks.do_unblock, "You unblocked {name}.", "You had not blocked {name}.")
