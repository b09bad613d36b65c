"""The `{% load challenges %}` library: Django finds it here by name; its tags are
games/web/templatetags/challenges.py."""

from games.web.templatetags.challenges import register

__all__ = ["register"]
