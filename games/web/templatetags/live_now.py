"""`{% load live_now %}`: the home page's Live now box (`{% live_now_top %}`), the same shared render
its poll fetches (games/web/live_now_views.py)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from ..live_now_views import top_box

register = template.Library()


@register.simple_tag
def live_now_top() -> SafeString:
    # A template's own render (escaped by it), kept in the cache as a string.
    return mark_safe(top_box())  # noqa: S308
