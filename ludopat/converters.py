"""Path converters: a URL matches only when its ids are well formed, so a malformed id (a NUL byte,
a 10,000-character string, a slash trick) is Django's plain 404 and never reaches a database query
(PostgreSQL refuses NUL bytes in text with an error, which was a 500), and a number too large for its
column is not an id (SQLite raises on one). Every id in a URL is read by one of these:
tests/hardening/test_hostile_input.py fails on Django's unbounded `int`, `str` or `path`.

Importing this module registers them; every URL module that uses them imports it.
"""

from __future__ import annotations

from django.urls import register_converter


class GameIdConverter:
    """A room id: `secrets.token_urlsafe` characters, no longer than the column (24)."""

    regex = r"[A-Za-z0-9_-]{1,24}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter(GameIdConverter):
    """A username as Django's validator allows it: letters, digits and @ . + - _ (150 at most)."""

    regex = r"[\w.@+-]{1,150}"


class IdConverter:
    """A row's number (a tournament, a report): at most 18 digits, so every id it matches fits the
    database's 64-bit integer (19 digits may not, and SQLite raises on them instead of finding
    nothing). Django's own `int` takes any length."""

    regex = r"[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class TokenConverter(GameIdConverter):
    """A password-reset link's parts (the account's id in base 64, the token): Django's are far
    shorter than 100 characters; its own `str` takes any length."""

    regex = r"[0-9A-Za-z_-]{1,100}"


class NameConverter(GameIdConverter):
    """A word from a fixed list (a mode, a rule set): the view checks it against the list, so a
    mistyped or made-up name such as "ludo-king" gets the page's own "No such rule set" answer."""

    regex = r"[a-z0-9-]{1,40}"


register_converter(GameIdConverter, "gameid")
register_converter(UsernameConverter, "username")
register_converter(NameConverter, "name")
register_converter(IdConverter, "id")
register_converter(TokenConverter, "token")
