"""Accounts for the ratings tests, without a password: nothing to hash (hashing one takes seconds on
a loaded machine), and the tests that open pages log them in directly."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def accounts(*names):
    return [get_user_model().objects.create_user(name) for name in names]
