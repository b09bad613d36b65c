"""The `{% load staking %}` library: Django finds it here by name; its tags are
games/web/templatetags/staking.py."""

from games.web.templatetags.staking import register

__all__ = ["register"]
