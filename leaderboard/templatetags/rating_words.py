"""The `{% load rating_words %}` library: Django finds it here by name; its tags are
leaderboard/web/templatetags/rating_words.py."""

from leaderboard.web.templatetags.rating_words import register

__all__ = ["register"]
