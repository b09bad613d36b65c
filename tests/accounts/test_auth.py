"""Sign-up, log-in and everything around them, through the real views, database and Redis cache."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "lucky-six-66-pawns"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", "alice@example.com", PASSWORD)


def log_in(client, username="alice", password=PASSWORD):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_sign_up_creates_the_account_and_logs_in(client):
    r = client.post("/accounts/signup/", {"username": "bob", "password1": PASSWORD,
                                          "password2": PASSWORD})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == "/"
    assert User.objects.filter(username="bob").exists()
    assert "bob" in client.get("/").content.decode()


def test_sign_up_returns_to_the_room_it_came_from(client):
    r = client.post("/accounts/signup/?next=/games/abc/", {"username": "bob", "password1": PASSWORD,
                    "password2": PASSWORD, "next": "/games/abc/"})  # fmt: skip
    assert r["Location"] == "/games/abc/"


def test_sign_up_never_redirects_off_site(client):
    r = client.post("/accounts/signup/", {"username": "bob", "password1": PASSWORD,
                    "password2": PASSWORD, "next": "https://evil.example/"})  # fmt: skip
    assert r["Location"] == "/"


def test_sign_up_rejects_a_weak_password_with_a_reason(client):
    r = client.post(
        "/accounts/signup/", {"username": "bob", "password1": "123", "password2": "123"}
    )
    assert r.status_code == 200
    assert "Use at least 8 characters." in r.content.decode()
    assert not User.objects.filter(username="bob").exists()


def test_sign_up_errors_sit_beside_their_field_in_our_words_and_the_first_takes_the_focus(client):
    r = client.post("/accounts/signup/", {"username": "bo b", "password1": "12345678",
                                          "password2": "12345679"})  # fmt: skip
    html = r.content.decode()
    name_error = 'id="id_username_error"'
    assert name_error in html and "no spaces" in html
    username = re.search(r"<input[^>]*name=\"username\"[^>]*>", html).group(0)
    assert "autofocus" in username and 'aria-describedby="id_username_error' in username
    password2 = re.search(r"<input[^>]*name=\"password2\"[^>]*>", html).group(0)
    assert "autofocus" not in password2 and "id_password2_error" in password2
    assert "The two passwords differ" in html
    # The name's error is written under the name's label, before the next field starts.
    assert html.index(name_error) < html.index('name="username"') < html.index('name="email"')
    for stock in ("Enter a valid username", "fields didn", "Password confirmation", "Required."):
        assert stock not in html


def test_sign_up_rejects_a_taken_username(client, alice):
    r = client.post("/accounts/signup/", {"username": "alice", "password1": PASSWORD,
                                          "password2": PASSWORD})  # fmt: skip
    assert "That name is taken: choose another." in r.content.decode()


def test_log_in_and_log_out(client, alice):
    assert log_in(client).status_code == 302
    assert client.session[SESSION_KEY] == str(alice.pk)
    assert client.post("/accounts/logout/").status_code == 302
    assert SESSION_KEY not in client.session


def test_wrong_password_is_refused_with_a_message(client, alice):
    r = log_in(client, password="wrong")
    assert r.status_code == 200
    assert "Please enter a correct username and password" in r.content.decode()
    assert SESSION_KEY not in client.session


def test_session_key_rotates_on_log_in(client, alice):
    client.get("/accounts/login/")
    session = client.session
    session["seen"] = True
    session.save()
    before = session.session_key
    log_in(client)
    assert client.session.session_key != before


def test_lock_out_after_repeated_failures_then_cool_off(client, alice):
    for _ in range(5):
        log_in(client, password="wrong")
    r = log_in(client)  # even the right password is refused while locked
    assert r.status_code == 429
    assert "Too many failed log-ins" in r.content.decode()
    assert SESSION_KEY not in client.session
    # Another address is not locked out of the same account.
    other = Client(REMOTE_ADDR="10.9.9.9")
    assert log_in(other).status_code == 302
    # After the cool-off the right password works again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in(client).status_code == 302


def test_csrf_is_enforced():
    client = Client(enforce_csrf_checks=True)
    r = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert r.status_code == 403


def test_password_change(client, alice):
    log_in(client)
    r = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": "a-new-pass-4-ludo",
                    "new_password2": "a-new-pass-4-ludo"})  # fmt: skip
    assert r.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-pass-4-ludo")


def test_password_reset_by_email(client, alice):
    r = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert r.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(
        r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body
    ).group(1)
    r = client.get(link, follow=True)
    form_url = r.redirect_chain[-1][0]
    r = client.post(
        form_url, {"new_password1": "fresh-ludo-pass-9", "new_password2": "fresh-ludo-pass-9"}
    )
    assert r.status_code == 302
    assert log_in(Client(), password="fresh-ludo-pass-9").status_code == 302


def test_password_reset_for_unknown_email_reveals_nothing(client):
    r = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert r.status_code == 302 and len(mail.outbox) == 0


def test_home_page(client):
    r = client.get("/")
    page = r.content.decode()
    assert r.status_code == 200
    for link in ("Play vs computer", "Pass &amp; play", "Invite friends", "Staked rooms", "Leaderboard",
                 "Log in", "Sign up"):  # fmt: skip
        assert link in page
    assert '<svg class="board"' in page and 'id="main"' in page
    assert "htmx-2.0.11.min.js" in page and "ext-ws-2.0.4.min.js" in page


def test_vendored_htmx_is_served(client):
    r = client.get("/static/vendor/htmx/htmx-2.0.11.min.js")
    assert r.status_code == 200


def test_profile_page(client, alice):
    r = client.get("/u/alice/")
    assert r.status_code == 200 and "alice" in r.content.decode()
    assert client.get("/u/nobody/").status_code == 404


def test_admin_is_staff_only(client, alice):
    log_in(client)
    r = client.get("/admin/")
    assert r.status_code == 302 and "/admin/login/" in r["Location"]
