"""The `{% play_now_form %}` tag: Play now's form, on the home page and the waiting screen."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context

from games.web.tables_forms import PlayNowForm

register = template.Library()


@register.inclusion_tag("games/tables/_play_now_form.html", takes_context=True)
def play_now_form(context: Context, form: PlayNowForm | None = None) -> dict[str, Any]:
    return {
        "form": form or PlayNowForm(),
        "csrf_token": context.get("csrf_token"),
        "user": context.get("user"),
    }
