"""The `{% load coins %}` library: Django finds it here by name; its tags are
accounts/web/templatetags/coins.py."""

from accounts.web.templatetags.coins import register

__all__ = ["register"]
