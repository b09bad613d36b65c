"""A second factor for staff: a password alone never opens the desk or the admin. Staff set up an
authenticator app from a QR code and get recovery codes once; log-ins then ask for a code. Players are
never asked unless they turn it on."""

from __future__ import annotations

import time
from base64 import b32decode
from binascii import unhexlify
from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.moderation.roles import MODERATOR, ensure_roles
from accounts.users import two_factor
from accounts.web.two_factor_views import TOO_MANY_CODES
from tests.factories import code_now, verified_client, with_authenticator

# redis_client: each test starts with the rate limits' counts empty.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("redis_client")]
PASSWORD = "a-long-staff-password"
CODE_PAGE = "/accounts/login/code/"


@pytest.fixture
def moderator(django_user_model):
    ensure_roles()
    user = django_user_model.objects.create_user("mod", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATOR))
    return user


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("ann", password=PASSWORD)


def log_in(client: Client, user, after: str = ""):
    data = {"username": user.username, "password": PASSWORD, "next": after}
    return client.post("/accounts/login/", data)


def password_only(user) -> Client:
    """Logged in through the log-in page with the password, and nothing else."""
    client = Client()
    answer = log_in(client, user)
    assert answer.status_code == 302
    return client


def logged_in(client: Client) -> bool:
    return SESSION_KEY in client.session


def next_code(device) -> str:
    """A code the device has not seen: an app's codes are each accepted once, and the next step's
    is accepted early (one step of clock drift)."""
    device.refresh_from_db()
    now = time.time()
    return code_now(device, at=max(now, (device.last_t + 1) * device.step))


def waited(user) -> None:
    """As if the wait django-otp sets a device after a wrong code (a second, then doubling) were over."""
    gone = timezone.now() - timedelta(minutes=1)
    for model in (TOTPDevice, StaticDevice):
        model.objects.filter(user=user).update(throttling_failure_timestamp=gone)


@pytest.mark.parametrize("page", ["/desk/", "/admin/"])
def test_a_staff_password_alone_opens_neither_the_desk_nor_the_admin(moderator, page):
    answer = password_only(moderator).get(page, follow=True)
    assert answer.status_code == 403
    assert "second factor" in answer.content.decode()


def test_a_staff_password_alone_reads_no_count_of_open_reports(moderator, player):
    from accounts.moderation.reports import do_report_player

    do_report_player(player, moderator, reason="rude")
    nav = password_only(moderator).get("/").content.decode()
    assert 'data-testid="nav-desk"' in nav and 'data-testid="nav-desk-count"' not in nav
    assert 'data-testid="nav-desk-count">1<' in verified_client(moderator).get("/").content.decode()


@pytest.mark.parametrize("page", ["/desk/", "/admin/"])
def test_password_then_code_opens_the_desk_and_the_admin(moderator, page):
    with_authenticator(moderator)
    client = Client()
    answer = log_in(client, moderator, after=page)
    assert (
        answer.status_code == 302 and answer["Location"] == f"{CODE_PAGE}?next=%2F{page[1:-1]}%2F"
    )
    assert not logged_in(client)  # the password alone logs no one in
    still_out = client.get(page, follow=True)
    assert still_out.redirect_chain[-1][0].startswith("/accounts/login/")

    answer = client.post(CODE_PAGE, {"code": code_now(), "next": page})
    assert answer.status_code == 302 and answer["Location"] == page
    assert client.get(page).status_code == 200


def test_the_admin_login_page_is_the_sites_with_its_code_step(moderator):
    answer = Client().get("/admin/login/?next=/admin/")
    assert answer.status_code == 302 and answer["Location"] == "/accounts/login/?next=/admin/"


def test_staff_set_up_an_app_from_the_refusal_page_and_see_recovery_codes_once(moderator):
    client = password_only(moderator)
    refusal = client.get("/desk/").content.decode()
    assert 'href="/accounts/two-factor/set-up/?next=/desk/"' in refusal

    page = client.get("/accounts/two-factor/set-up/?next=/desk/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'src="data:image/svg+xml' in text  # drawn here: the CSP allows data: images only
    device = TOTPDevice.objects.get(user=moderator, confirmed=False)
    secret = page.context["secret"].replace(" ", "")
    assert b32decode(secret + "=" * (-len(secret) % 8)) == unhexlify(device.key)
    assert client.get("/accounts/two-factor/set-up/").context["secret"] == page.context["secret"]

    wrong = client.post("/accounts/two-factor/set-up/", {"code": "000000", "next": "/desk/"})
    assert wrong.status_code == 400
    assert two_factor.WRONG_FIRST_CODE in wrong.content.decode()
    waited(moderator)

    confirmed = client.post("/accounts/two-factor/set-up/", {"code": code_now(device)})
    assert (
        confirmed.status_code == 302
        and confirmed["Location"] == "/accounts/two-factor/recovery-codes/"
    )
    shown = client.get(confirmed["Location"])
    codes = shown.context["codes"]
    assert len(codes) == two_factor.RECOVERY_CODES and len(set(codes)) == len(codes)
    assert all(code in shown.content.decode() for code in codes)
    again = client.get(confirmed["Location"]).content.decode()
    assert not any(code in again for code in codes)
    assert "shown once" in again

    assert client.get("/desk/").status_code == 200  # the confirming code verified this session


def test_a_recovery_code_logs_in_once(moderator):
    with_authenticator(moderator)
    codes = two_factor.do_new_recovery_codes(moderator)
    client = Client()
    log_in(client, moderator)
    answer = client.post(CODE_PAGE, {"code": codes[0].upper()})
    assert answer.status_code == 302 and logged_in(client)
    assert client.get("/desk/").status_code == 200

    again = Client()
    log_in(again, moderator)
    refused = again.post(CODE_PAGE, {"code": codes[0]})
    assert refused.status_code == 400 and not logged_in(again)
    assert two_factor.WRONG_CODE in refused.content.decode()
    waited(moderator)
    assert again.post(CODE_PAGE, {"code": codes[1]}).status_code == 302 and logged_in(again)
    assert two_factor.recovery_codes_left(moderator) == two_factor.RECOVERY_CODES - 2


def test_a_wrong_code_says_so_and_a_flood_of_codes_is_refused(moderator, settings):
    with_authenticator(moderator)
    client = Client()
    log_in(client, moderator)
    wrong = client.post(CODE_PAGE, {"code": "000000"})
    assert wrong.status_code == 400 and two_factor.WRONG_CODE in wrong.content.decode()
    # At once again: the device's own wait (django-otp) refuses even the right code, and says so.
    hasty = client.post(CODE_PAGE, {"code": code_now()})
    assert (
        hasty.status_code == 429 and "Too many wrong codes: wait 1 second" in hasty.content.decode()
    )

    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # the site's own limit, by itself
    for _ in range(3):
        assert client.post(CODE_PAGE, {"code": "000000"}).status_code == 400
    over = client.post(CODE_PAGE, {"code": code_now()})  # the 6th in five minutes
    assert over.status_code == 429 and TOO_MANY_CODES in over.content.decode()
    assert not logged_in(client)
    # From another browser and address too: the account is what a guesser can't change.
    other = Client(REMOTE_ADDR="203.0.113.9")
    log_in(other, moderator)
    assert other.post(CODE_PAGE, {"code": code_now()}).status_code == 429


def test_a_log_in_left_at_its_code_step_expires(moderator, monkeypatch):
    with_authenticator(moderator)
    client = Client()
    log_in(client, moderator)
    later = time.time() + 301
    monkeypatch.setattr("accounts.web.two_factor_views.time.time", lambda: later)
    answer = client.post(CODE_PAGE, {"code": code_now()})
    assert answer.status_code == 400 and "took too long" in answer.content.decode()
    assert not logged_in(client)


def test_a_session_from_before_its_app_gives_a_code_to_open_the_desk(moderator):
    device = with_authenticator(moderator)
    client = Client()
    client.force_login(moderator)  # logged in before the second factor existed
    refusal = client.get("/desk/")
    assert refusal.status_code == 403 and 'href="/accounts/login/code/?next=/desk/"' in (
        refusal.content.decode()
    )
    # A stolen password can't swap the owner's app for the thief's: setting up asks for a code.
    assert client.get("/accounts/two-factor/set-up/")["Location"].startswith(CODE_PAGE)
    assert client.post(CODE_PAGE, {"code": next_code(device), "next": "/desk/"}).status_code == 302
    assert client.get("/desk/").status_code == 200


def test_players_are_not_asked_for_a_code(player):
    client = Client()
    answer = log_in(client, player)
    assert answer.status_code == 302 and answer["Location"] == "/" and logged_in(client)
    assert "Second factor" in client.get(f"/u/{player.username}/").content.decode()
    state = client.get("/accounts/two-factor/").content.decode()
    assert "Off: a log-in asks for your password only." in state


def test_a_player_who_turns_it_on_is_asked_at_log_in_and_may_turn_it_off(player):
    client = password_only(player)
    client.get("/accounts/two-factor/set-up/")
    device = TOTPDevice.objects.get(user=player)
    client.post("/accounts/two-factor/set-up/", {"code": next_code(device)})
    client.post("/accounts/logout/")

    answer = log_in(client, player)
    assert answer["Location"] == CODE_PAGE and not logged_in(client)
    client.post(CODE_PAGE, {"code": next_code(device)})
    assert logged_in(client)

    assert client.post("/accounts/two-factor/off/").status_code == 302
    assert not two_factor.has_second_factor(player)
    client.post("/accounts/logout/")
    assert log_in(client, player)["Location"] == "/" and logged_in(client)


def test_staff_may_not_turn_theirs_off(moderator):
    client = verified_client(moderator)
    assert client.post("/accounts/two-factor/off/").status_code == 403
    assert two_factor.has_second_factor(moderator)


def test_an_admin_resets_a_lost_second_factor(moderator, capsys):
    client = verified_client(moderator)
    two_factor.do_new_recovery_codes(moderator)
    assert client.get("/desk/").status_code == 200

    call_command("reset_second_factor", "mod")
    assert "mod's second factor is removed" in capsys.readouterr().out
    assert not two_factor.has_second_factor(moderator)
    assert two_factor.recovery_codes_left(moderator) == 0
    assert client.get("/desk/").status_code == 403  # the session it verified is no longer
    fresh = Client()
    assert log_in(fresh, moderator)["Location"] == "/" and logged_in(fresh)
