"""The `{% load round_rows %}` library: Django finds it here by name; its tags are
accounts/web/templatetags/round_rows.py."""

from accounts.web.templatetags.round_rows import register

__all__ = ["register"]
