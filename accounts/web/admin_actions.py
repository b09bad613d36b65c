"""Admin actions that ask for a reason first: an intermediate page with a form, then the `do_*` call
for each selected object, each success or refusal reported as an admin message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.forms import Form
from django.http import HttpRequest
from django.template.response import TemplateResponse

from ..models import User
from ..moderation.errors import ModerationError
from .logged_in import account_of


def moderator_of(request: HttpRequest) -> User:
    """The admin's user: the admin site lets in only staff, logged in."""
    return account_of(request)


def form_action(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    form_class: type[Form],
    apply: Callable[[Any, dict[str, Any]], object],
    done: str,
) -> TemplateResponse | None:
    """`apply(obj, cleaned_data)` runs for every selected object once the form is valid."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        for obj in queryset:
            try:
                apply(obj, form.cleaned_data)
            except ModerationError as error:
                modeladmin.message_user(request, f"{obj}: {error}", messages.ERROR)
            else:
                modeladmin.message_user(request, f"{obj}: {done}", messages.SUCCESS)
        return None  # back to the list
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "opts": modeladmin.model._meta,
        "queryset": queryset,
        "form": form,
        "action": action,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/moderation_form.html", context)


def each(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    apply: Callable[[Any], object],
    done: str,
) -> None:
    """An action that needs no form: `apply(obj)` for each selected object."""
    for obj in queryset:
        try:
            apply(obj)
        except ModerationError as error:
            modeladmin.message_user(request, f"{obj}: {error}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{obj}: {done}", messages.SUCCESS)
