"""The `{% load games_extras %}` library: Django finds it here by name; its tags are
games/web/templatetags/games_extras.py."""

from games.web.templatetags.games_extras import register

__all__ = ["register"]
