"""Log-in with a second factor, setting one up, recovery codes, and the page that asks staff for one.

An account with an authenticator is never logged in by its password alone: the password step keeps
only "who, by which backend, since when" in the session, and the code step logs in. A staff account
without one logs in by password (it has nothing else yet) and is sent to set one up: the desk and the
admin stay closed to its session until a device verified it. The services are accounts/users/two_factor.py.
"""

from __future__ import annotations

import time

from django import forms
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_otp import login as otp_login

from ludopat import client_address, throttle
from ludopat.next_url import next_in

from ..models import User
from ..users import two_factor
from ..users.two_factor import SecondFactorRefusal, is_verified
from .forms import LogInForm
from .logged_in import account_of

PENDING = (
    "second_factor_pending"  # session: the account whose password was right, awaiting its code
)
CODES_ONCE = "second_factor_codes"  # session: new recovery codes, until their page shows them
AFTER = "second_factor_next"  # session: where to go once the codes are kept
PENDING_SECONDS = 300
# Code attempts per account (and 4 times that per address) in CODE_WINDOW seconds: a person who
# mistypes gets several tries; a guesser who has the password gets 5 of a million codes in 5 minutes,
# and each device doubles its own wait after every wrong code on top of that.
CODES_PER_WINDOW = 5
CODE_WINDOW = 300
TOO_MANY_CODES = "Too many codes tried: wait five minutes, then type the code your app shows then."
TOOK_TOO_LONG = "That took too long: log in with your password again."


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code",
        max_length=40,
        help_text="6 digits from your authenticator app, or one of your recovery codes.",
        error_messages={"required": two_factor.NO_CODE},
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": True, "spellcheck": "false"}
        ),
    )


class LogInView(auth_views.LoginView):
    """Password first; an account with an authenticator then gives a code before it is logged in."""

    authentication_form = LogInForm
    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        user = form.get_user()
        if not two_factor.has_second_factor(user):
            return super().form_valid(form)
        self.request.session[PENDING] = {
            "user": user.pk,
            "backend": user.backend,
            "since": time.time(),
        }
        return redirect(_with_next(reverse("login_code"), self.get_redirect_url()))


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """The code step: of a log-in in progress, or of a session logged in before it had a factor."""
    after = next_in(request.POST, request) or next_in(request.GET, request) or ""
    user, backend = _whose_code(request)
    if user is None:
        if request.method == "POST":
            form = CodeForm(request.POST)
            form.is_valid()
            form.add_error(None, TOOK_TOO_LONG)
            return _code_page(request, form, after, status=400)
        return redirect(_with_next(reverse("login"), after))
    if request.user.is_authenticated and is_verified(request.user):
        return redirect(after or "home")
    if not two_factor.has_second_factor(user):
        return redirect(_with_next(reverse("two_factor_enrol"), after))
    if request.method == "GET":
        return _code_page(request, CodeForm(), after)
    form = CodeForm(request.POST)
    if not form.is_valid():
        return _code_page(request, form, after, status=400)
    if not _may_try_a_code(request, user):
        form.add_error("code", TOO_MANY_CODES)
        return _code_page(request, form, after, status=429)
    try:
        device = two_factor.do_check_code(user, form.cleaned_data["code"])
    except SecondFactorRefusal as refusal:
        form.add_error("code", str(refusal))
        return _code_page(request, form, after, status=refusal.status)
    if backend:  # a log-in in progress: now it is one
        request.session.pop(PENDING, None)
        login(request, user, backend=backend)
    otp_login(request, device)
    return redirect(after or "home")


def _whose_code(request: HttpRequest) -> tuple[User | None, str]:
    """(the account asked for a code, its log-in backend or "" when it is already logged in)."""
    if request.user.is_authenticated:
        return account_of(request), ""
    pending = request.session.get(PENDING)
    if not isinstance(pending, dict) or time.time() - pending.get("since", 0) > PENDING_SECONDS:
        request.session.pop(PENDING, None)
        return None, ""
    # 0: no account (a pending log-in always names one).
    user = User.objects.filter(pk=pending.get("user", 0), is_active=True).first()
    return user, (pending.get("backend", "") if user is not None else "")


def _may_try_a_code(request: HttpRequest, user: User) -> bool:
    """The site's rate limit (ludopat.throttle), per account: the guesser changes address and browser,
    never the account. The address gets its factor, as in every other limit."""
    per_account = throttle.within("second_factor", f"user:{user.pk}", CODES_PER_WINDOW, CODE_WINDOW)
    address = client_address.from_request(request)
    per_address = throttle.within(
        "second_factor",
        f"addr:{address}",
        CODES_PER_WINDOW * throttle.address_factor(),
        CODE_WINDOW,
    )
    return per_account and per_address


def _code_page(
    request: HttpRequest, form: forms.Form, after: str, status: int = 200
) -> HttpResponse:
    return render(request, "accounts/login_code.html", {"form": form, "next": after}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def enrol(request: HttpRequest) -> HttpResponse:
    """Set up an authenticator: scan the QR code (or type the secret), confirm with the first code,
    then see the recovery codes once. Replacing an authenticator takes a session it verified: a
    stolen password must not be enough to swap the owner's phone for the thief's."""
    user = account_of(request)
    after = next_in(request.POST, request) or next_in(request.GET, request) or ""
    if two_factor.has_second_factor(user) and not is_verified(user):
        return redirect(_with_next(reverse("login_code"), after))
    form = CodeForm(request.POST) if request.method == "POST" else CodeForm()
    status = 200
    if request.method == "POST" and form.is_valid():
        if not _may_try_a_code(request, user):
            form.add_error("code", TOO_MANY_CODES)
            status = 429
        else:
            try:
                device, codes = two_factor.do_confirm_authenticator(user, form.cleaned_data["code"])
            except SecondFactorRefusal as refusal:
                form.add_error("code", str(refusal))
                status = refusal.status
            else:
                otp_login(request, device)
                return _show_codes_once(request, codes, after)
    elif request.method == "POST":
        status = 400
    device = two_factor.pending_authenticator(user)
    context = {
        "form": form,
        "next": after,
        "qr_code": two_factor.qr_code(device),
        "secret": two_factor.secret_for_typing(device),
        "replacing": two_factor.has_second_factor(user),
    }
    return render(request, "accounts/two_factor_enrol.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """New recovery codes are shown here once; asking again makes a new set (a verified session)."""
    user = account_of(request)
    if request.method == "POST":
        if not is_verified(user):
            return redirect(_with_next(reverse("login_code"), reverse("two_factor")))
        return _show_codes_once(request, two_factor.do_new_recovery_codes(user), "")
    codes = request.session.pop(CODES_ONCE, None)
    after = request.session.pop(AFTER, "") if codes else ""
    context = {"codes": codes, "next": after, "left": two_factor.recovery_codes_left(user)}
    return render(request, "accounts/recovery_codes.html", context)


def _show_codes_once(request: HttpRequest, codes: list[str], after: str) -> HttpResponse:
    # Through the session and a redirect: a reload shows them no more, and no form is sent twice.
    request.session[CODES_ONCE] = codes
    request.session[AFTER] = after
    return redirect("two_factor_codes")


@require_safe
@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    """Whether log-ins ask for a code, and what can be done about it."""
    user = account_of(request)
    context = {
        "on": two_factor.has_second_factor(user),
        "verified": is_verified(user),
        "staff": two_factor.needs_second_factor(user),
        "left": two_factor.recovery_codes_left(user),
    }
    return render(request, "accounts/two_factor.html", context)


@login_required
@require_POST
def turn_off(request: HttpRequest) -> HttpResponse:
    user = account_of(request)
    if not is_verified(user):
        return redirect(_with_next(reverse("login_code"), reverse("two_factor")))
    try:
        two_factor.do_turn_off(user)
    except SecondFactorRefusal as refusal:
        return render(request, "403.html", {"message": str(refusal)}, status=refusal.status)
    return redirect("two_factor")


def second_factor_needed(request: HttpRequest, after: str) -> HttpResponse:
    """The desk's and the admin's answer to a staff session that no device verified."""
    context = {"enrolled": two_factor.has_second_factor(account_of(request)), "next": after}
    return render(request, "accounts/second_factor_needed.html", context, status=403)


def _with_next(url: str, after: str | None) -> str:
    return f"{url}?{urlencode({'next': after})}" if after else url
