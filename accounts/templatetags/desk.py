"""The `{% load desk %}` library: Django finds it here by name; its tags are
accounts/web/templatetags/desk.py."""

from accounts.web.templatetags.desk import register

__all__ = ["register"]
