"""Passwords are hashed at test speed in the tests and in the stacks they start, never in production."""

import importlib

from django.contrib.auth.hashers import check_password, make_password

import ludopat.settings as site_settings
from tests import fast_hashing


def test_the_tests_hash_fast_and_still_check_a_hash_the_site_would_make():
    assert make_password("x").startswith("md5$")
    site_made = make_password("x", hasher="pbkdf2_sha256")
    assert check_password("x", site_made)


def test_the_browser_and_integration_stacks_hash_as_the_test_process_does():
    for name in ("tests.browser.stack_settings", "tests.integration.settings"):
        assert importlib.import_module(name).PASSWORD_HASHERS == fast_hashing.PASSWORD_HASHERS


def test_the_site_itself_keeps_djangos_slow_default():
    assert not hasattr(site_settings, "PASSWORD_HASHERS")
