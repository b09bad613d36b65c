"""The `{% load tables %}` library: Django finds it here by name; its tags are
games/web/templatetags/tables.py."""

from games.web.templatetags.tables import register

__all__ = ["register"]
