"""Whole numbers from a client: ASCII digits only, parsed in one place.

Python's `str.isdigit()` is True for "²" (which `int()` refuses: a 500) and `int()` and Django's
`IntegerField` accept "٣" and "３"; a 5,000-digit string makes `int()` raise too. Every number a
client sends (form fields, action parameters, query strings, WebSocket frames) goes through
`parse_int` or `AsciiIntegerField`, which accept an optional minus sign and at most 18 ASCII digits
(so the value always fits a 64-bit database column), nothing else: no "1e3", no "0.5", no "+3".
"""  # noqa: RUF002  the look-alike digits this module refuses

from __future__ import annotations

import re

from django import forms
from django.http import QueryDict

_WHOLE = re.compile(r"-?[0-9]{1,18}")
NOT_A_NUMBER = "Enter a whole number written with the digits 0 to 9."


def parse_int(value: object, lo: int | None = None, hi: int | None = None) -> int | None:
    """The whole number `value` spells in ASCII digits within [lo, hi], else None.

    >>> parse_int("12"), parse_int(" 7 "), parse_int("²"), parse_int("٣"), parse_int("1e3")
    (12, 7, None, None, None)
    >>> parse_int("0", lo=1), parse_int("9", hi=6)
    (None, None)
    """
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    text = str(value).strip()
    if not _WHOLE.fullmatch(text):
        return None
    number = int(text)
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        return None
    return number


class AsciiIntegerField(forms.IntegerField):
    """Django's IntegerField, but "٣", "３", "1e3", "1.0" and 19-digit numbers are refused."""  # noqa: RUF002  the look-alikes it refuses

    default_error_messages = {"invalid": NOT_A_NUMBER}

    def to_python(self, value: object) -> int | None:
        if value in self.empty_values:
            return None
        number = parse_int(value)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def page_number(raw: object) -> int:
    """A `?page=` for Django's Paginator (which would take "٣" as 3): ASCII digits, else page 1."""
    return parse_int(raw, lo=1) or 1


def page_in(query: QueryDict) -> int:
    """The `?page=` of a query string (a QueryDict), as `page_number` reads it."""
    return page_number(query.get("page"))
