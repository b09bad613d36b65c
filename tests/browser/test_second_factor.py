"""A moderator without a second factor is refused the desk, sets one up from the refusal page (QR code
drawn by the site under its Content-Security-Policy, the key to type, a code, recovery codes) and lands
on the desk; their next log-in asks for a code, and a recovery code does. Every page passes axe."""

from __future__ import annotations

import time
from base64 import b32decode

import pytest
from django_otp.oath import TOTP
from playwright.sync_api import expect

from tests.browser.conftest import check_accessible
from tests.browser.play import PASSWORD, log_in, make_user
from tests.browser.test_content_security_policy import WATCH, violations

pytestmark = pytest.mark.browser


def make_moderator_without_an_app(username: str) -> None:
    from django.contrib.auth.models import Group

    from accounts.moderation.roles import MODERATOR, ensure_roles

    ensure_roles()
    user = make_user(username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATOR))


def code_for(secret: str) -> str:
    """What an app shows for the key typed from the set-up page."""
    key = secret.replace(" ", "")
    app = TOTP(b32decode(key + "=" * (-len(key) % 8)))
    app.time = time.time()
    return f"{app.token():06d}"


def test_a_moderator_sets_up_an_app_from_the_desks_refusal_then_logs_in_with_a_code(
    new_page, server
):
    server(make_moderator_without_an_app, "mod")
    mod = new_page()
    mod.context.add_init_script(WATCH)
    log_in(mod, "mod")  # a password, and nothing else yet
    mod.goto("/desk/")
    expect(mod.get_by_role("heading", name="A second factor is needed")).to_be_visible()

    mod.get_by_role("link", name="Set up a second factor").click()
    qr = mod.get_by_test_id("two-factor-qr")
    expect(qr).to_be_visible()
    assert mod.evaluate("(img) => img.naturalWidth", qr.element_handle()) > 0  # drawn, not blocked
    check_accessible(mod, "setting up")
    secret = mod.get_by_test_id("two-factor-secret").inner_text()
    mod.get_by_label("Code", exact=True).fill(code_for(secret))
    mod.get_by_role("button", name="Confirm").click()

    codes = mod.get_by_test_id("recovery-code-list").locator("code").all_inner_texts()
    assert len(codes) == 10
    check_accessible(mod, "recovery codes")
    assert not violations(mod)
    mod.get_by_test_id("codes-kept").click()
    expect(mod.get_by_test_id("desk-empty")).to_be_visible()  # the desk, open at last

    mod.get_by_role("button", name="Log out").click()
    mod.goto("/accounts/login/?next=/desk/")
    mod.get_by_label("Username").fill("mod")
    mod.get_by_label("Password").fill(PASSWORD)
    mod.get_by_role("button", name="Log in").click()
    expect(mod.get_by_test_id("login-code")).to_be_visible()
    check_accessible(mod, "asked for a code")
    mod.get_by_label("Code", exact=True).fill(codes[0])  # the phone is elsewhere: a recovery code
    mod.get_by_role("button", name="Go on").click()
    expect(mod.get_by_test_id("desk-empty")).to_be_visible()
