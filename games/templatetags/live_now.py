"""The `{% load live_now %}` library: Django finds it here by name; its tags are
games/web/templatetags/live_now.py."""

from games.web.templatetags.live_now import register

__all__ = ["register"]
