"""The `{% load profiles %}` library: Django finds it here by name; its tags are
accounts/web/templatetags/profiles.py."""

from accounts.web.templatetags.profiles import register

__all__ = ["register"]
