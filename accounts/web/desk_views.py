"""The moderator's desk: staff pages where open reports are worked through (the queue, then one report
with its context, the player's history and the actions). Thin views: reads come from
accounts.moderation.desk_reads, every action is the moderation service the admin's actions call, so it is checked
and audited the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from accounts.moderation.models import Report

from ..models import User
from ..moderation import desk_reads
from ..moderation.errors import ModerationError
from ..moderation.reports import do_resolve_report
from ..users.sanctions import when
from ..users.two_factor import is_verified
from .desk_forms import ResolveForm
from .logged_in import account_of
from .two_factor_views import second_factor_needed

NOT_STAFF = "The moderator's desk is for the site's moderators."
NO_ROLE = "Your staff account has no moderator role yet: an admin adds you to the Moderator group."
MAY_NOT_RESOLVE = "Your role may read reports but not resolve them."
NO_SUCH_REPORT = "There is no report with that number: it may have been mistyped."
# A report number past the id column's range names nothing (and would overflow the query).
LARGEST_ID = 2**63 - 1
RESOLVED_ALREADY = "That report is resolved already (someone else may have just done it)."

# The queue's first lines after an action say what was done (kept in the session across the redirect:
# the desk's own line, next to the queue it changed).
DONE_KEY = "desk_done"
# What the moderator is told once the service has done it.
DONE = {
    Report.Outcome.DISMISSED: "Report dismissed.",
    Report.Outcome.HIDDEN: "Message hidden from every page.",
    Report.Outcome.MUTED: "{player} is muted until {until}.",
    Report.Outcome.BANNED: "{player} is banned {until}.",
}


def may_use_desk(user: User | AnonymousUser) -> bool:
    return bool(user.is_active and user.is_staff and user.has_perm("accounts.view_report"))


def desk_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Staff with a moderator role, in a session a second factor verified, only: a visitor is sent to
    log in, anyone else is told why (staff without the second factor, how to get one)."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if user.is_active and user.is_staff and not is_verified(user):
            return second_factor_needed(request, request.get_full_path())
        if not may_use_desk(user):
            message = NO_ROLE if user.is_staff else NOT_STAFF
            return render(request, "403.html", {"message": message}, status=403)
        return view(request, *args, **kwargs)

    return checked


@require_safe
@desk_page
def queue(request: HttpRequest) -> HttpResponse:
    context = {
        "entries": desk_reads.queue(),
        "resolved": desk_reads.recently_resolved(),
        "done": request.session.pop(DONE_KEY, ""),
    }
    return render(request, "desk/queue.html", context)


@require_http_methods(["GET", "POST"])
@desk_page
def report(request: HttpRequest, report_id: int) -> HttpResponse:
    found = desk_reads.report_for_desk(report_id) if report_id <= LARGEST_ID else None
    if found is None:
        return render(request, "desk/not_found.html", {"message": NO_SUCH_REPORT}, status=404)
    if request.method == "GET":
        return _report_page(request, found, ResolveForm(report=found))
    if not request.user.has_perm("accounts.change_report"):
        return _report_page(request, found, ResolveForm(report=found), MAY_NOT_RESOLVE, 403)
    if not found.is_open:
        return _report_page(request, found, ResolveForm(report=found), RESOLVED_ALREADY, 409)
    form = ResolveForm(request.POST, report=found)
    if not form.is_valid():
        return _report_page(request, found, form, status=400)
    outcome, reason = form.cleaned_data["outcome"], form.cleaned_data["reason"]
    try:
        do_resolve_report(
            account_of(request), found, outcome=outcome, reason=reason, until=form.until()
        )
    except ModerationError as error:
        found.refresh_from_db()  # another moderator may have resolved it meanwhile: a conflict
        return _report_page(request, found, form, str(error), 400 if found.is_open else 409)
    request.session[DONE_KEY] = _done(found, outcome)
    return redirect("desk")


def _done(report: Report, outcome: str) -> str:
    player = desk_reads.target_of(report)
    name = player.username if player is not None else "The player"
    until = ""
    if player is not None and outcome == Report.Outcome.MUTED:
        player.refresh_from_db(fields=["muted_until"])
        until = when(player.muted_until) if player.muted_until else ""
    elif player is not None and outcome == Report.Outcome.BANNED:
        player.refresh_from_db(fields=["banned_until"])
        ends = player.banned_until
        until = f"until {when(ends)}" if ends else "until a moderator lifts it"
    return DONE[Report.Outcome(outcome)].format(player=name, until=until)


def _report_page(
    request: HttpRequest,
    report: Report,
    form: ResolveForm,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    user = request.user
    target = desk_reads.target_of(report)
    context = {
        "report": report,
        "target": target,
        "game_id": desk_reads.game_id_of(report),
        "conversation": desk_reads.conversation(report.message) if report.message else [],
        "game": None if report.message else desk_reads.game_context(desk_reads.game_id_of(report)),
        "history": (
            desk_reads.history(
                target, besides=report, with_coins=user.has_perm("accounts.view_ledgerentry")
            )
            if target is not None
            else None
        ),
        "form": form,
        "refusal": refusal,
        "may": {
            "resolve": report.is_open and user.has_perm("accounts.change_report"),
            "hide": report.message is not None and user.has_perm("games.hide_chatmessage"),
            "mute": target is not None and user.has_perm("accounts.mute_user"),
            "ban": target is not None and user.has_perm("accounts.ban_user"),
        },
    }
    return render(request, "desk/report.html", context, status=status)
