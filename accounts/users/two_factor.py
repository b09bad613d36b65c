"""A second factor: an authenticator app (TOTP), and recovery codes for the day the phone is lost.

Staff need one to open the desk and the admin; players may turn one on. An account with a confirmed
authenticator is asked for a code at every log-in (accounts/web/two_factor_views.py). A session is verified
once one of the account's devices accepted a code in it: django-otp's `login` keeps the device's id in
the session and its middleware reads it back on each request, so deleting a device unverifies every
session it verified. The devices are django-otp's: a TOTPDevice for the app, a StaticDevice whose
tokens are the recovery codes (each deleted as it is used).
"""

from __future__ import annotations

from base64 import b32encode
from math import ceil

import segno
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User
from ludopat.refusals import Refusal

APP = "Authenticator app"  # the devices' names, as the admin lists them
RECOVERY = "Recovery codes"
RECOVERY_CODES = 10

WRONG_CODE = (
    "That code is not right: type the 6 digits your authenticator app shows now, "
    "or one of your recovery codes."
)
WRONG_FIRST_CODE = (
    "That code is not right: check that the app shows Ludopat, and type the 6 digits it shows now."
)
WAIT = "Too many wrong codes: wait {wait}, then type the code your app shows then."
START_AGAIN = "Open the set-up page again: it shows a new QR code."
NO_CODE = "Type the code: 6 digits from your app, or a recovery code."


class SecondFactorRefusal(Refusal):
    pass


def is_verified(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether a device verified this request's session (django-otp's middleware says so on the user;
    a user that never passed through it, a test's or a command's, is not verified)."""
    verified = getattr(user, "is_verified", None)
    return bool(user.is_authenticated and callable(verified) and verified())


def needs_second_factor(user: User) -> bool:
    """Staff may not work without one; players choose."""
    return bool(user.is_staff)


def authenticator_of(user: User) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=True).first()


def has_second_factor(user: User) -> bool:
    """Whether log-ins of this account ask for a code."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def recovery_codes_left(user: User) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def pending_authenticator(user: User) -> TOTPDevice:
    """The authenticator being set up: the same secret on every visit until a code confirms it, so the
    QR code a person scanned stays the one the site expects."""
    found = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    return found or TOTPDevice.objects.create(user=user, name=APP, confirmed=False)


def secret_for_typing(device: TOTPDevice) -> str:
    """The secret as an app asks for it typed in (base 32), in groups of four."""
    secret = b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def qr_code(device: TOTPDevice) -> str:
    """The app's set-up address as an SVG QR code, in a data: URI (the site's policy allows images
    from data:, and nothing leaves the server)."""
    return segno.make(device.config_url, error="m").svg_data_uri(scale=5, border=4, light="white")


def do_confirm_authenticator(user: User, code: str) -> tuple[TOTPDevice, list[str]]:
    """The first code from the app confirms it; any earlier authenticator is replaced, and a fresh set
    of recovery codes is made: (the device, the codes to show once)."""
    code = _clean(code)
    # A wrong code's count (django-otp's throttle) is saved whatever happens: the refusal is raised
    # after the transaction, which would otherwise roll the count back.
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        refusal = _refusal(device, code, WRONG_FIRST_CODE)
        if device is not None and refusal is None:
            TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            return device, _new_recovery_codes(user)
    raise refusal or SecondFactorRefusal(START_AGAIN, 409)


def do_new_recovery_codes(user: User) -> list[str]:
    """A new set of recovery codes; the old ones stop working."""
    with transaction.atomic():
        return _new_recovery_codes(user)


def _new_recovery_codes(user: User) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def do_check_code(user: User, code: str) -> Device:
    """The device that accepts `code` (6 digits: the app's; anything else: a recovery code, which is
    then used up). Each device slows down its own guessing (django-otp doubles the wait after each
    wrong code), on top of the views' rate limit."""
    code = _clean(code)
    if not code:
        raise SecondFactorRefusal(NO_CODE)
    model: type[TOTPDevice] | type[StaticDevice] = (
        TOTPDevice if code.isdigit() and len(code) == 6 else StaticDevice
    )
    with transaction.atomic():
        device = model.objects.select_for_update().filter(user=user, confirmed=True).first()
        refusal = _refusal(device, code, WRONG_CODE)
    if device is None or refusal is not None:
        raise refusal or SecondFactorRefusal(WRONG_CODE)
    return device


def _refusal(device: Device | None, code: str, wrong: str) -> SecondFactorRefusal | None:
    """Why `device` does not accept `code` (None: it did, and a recovery code is used up)."""
    if device is None:
        return None
    allowed, why = device.verify_is_allowed()
    if not allowed:
        wait = max(1, ceil((why["locked_until"] - timezone.now()).total_seconds()))
        return SecondFactorRefusal(WAIT.format(wait=_seconds(wait)), 429)
    return None if device.verify_token(code) else SecondFactorRefusal(wrong)


def _seconds(wait: int) -> str:
    if wait < 90:
        return f"{wait} second{'s' if wait != 1 else ''}"
    return f"{ceil(wait / 60)} minutes"


def do_turn_off(user: User) -> None:
    """A player's log-ins ask for a password only again. Staff keep theirs (an admin resets a lost one:
    `manage.py reset_second_factor`)."""
    if needs_second_factor(user):
        raise SecondFactorRefusal(
            "Staff accounts keep their second factor: an admin resets a lost one.", 403
        )
    do_reset(user)


def do_reset(user: User) -> int:
    """Every device of the account deleted (a lost phone): its sessions are no longer verified, and
    its next log-in asks for a password only (staff then set up a new app before the desk opens)."""
    with transaction.atomic():
        removed, _ = TOTPDevice.objects.filter(user=user).delete()
        removed_codes, _ = StaticDevice.objects.filter(user=user).delete()
    return removed + removed_codes


def _clean(code: str) -> str:
    """As typed: apps show "123 456", recovery codes are lower case."""
    return "".join(code.split()).lower()[:16]
