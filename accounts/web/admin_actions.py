"""Admin actions that ask for a reason first: an intermediate page with a form, then the `do_*` call
for each selected object, each success or refusal reported as an admin message.

`reason_action` makes such an action, and `permission_to` the `has_<name>_permission` method Django's
admin asks before it offers it, so a ModelAdmin states each action in one place:

    has_ban_permission = permission_to("accounts.ban_user")
    ban = reason_action("ban", "Ban the selected players", permission="ban", title="Ban",
                        form_class=BanForm, apply=lambda moderator, user, data: ..., done="banned.")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from ..models import User
from ..moderation.errors import ModerationError
from .logged_in import account_of


def moderator_of(request: HttpRequest) -> User:
    """The admin's user: the admin site lets in only staff, logged in."""
    return account_of(request)


# apply(the moderator, the selected object, the form's cleaned data)
Apply = Callable[[Any, Any, dict[str, Any]], object]
Action = Callable[[admin.ModelAdmin, HttpRequest, QuerySet[Any]], HttpResponse | None]


def permission_to(perm: str) -> Callable[[admin.ModelAdmin, HttpRequest], bool]:
    """A ModelAdmin's `has_<name>_permission` for its actions: whether the user holds `perm`."""

    def has_permission(modeladmin: admin.ModelAdmin, request: HttpRequest) -> bool:
        return request.user.has_perm(perm)

    return has_permission


def reason_action(
    name: str,
    description: str,
    *,
    permission: str,
    title: str,
    form_class: type[forms.Form],
    apply: Apply,
    done: str,
    first_only: bool = False,
) -> Action:
    """The admin action `name` (the attribute it is assigned to): asks for `form_class`, then calls
    `apply(request.user, obj, cleaned_data)` for every selected object (the first only, if
    `first_only`), each reported with `done` or the refusal."""

    @admin.action(description=description, permissions=[permission])
    def action(
        modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]
    ) -> HttpResponse | None:
        return form_action(
            modeladmin,
            request,
            queryset[:1] if first_only else queryset,
            action=name,
            title=title,
            form_class=form_class,
            apply=lambda obj, data: apply(request.user, obj, data),
            done=done,
        )

    action.__name__ = name
    return action


def form_action(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    form_class: type[forms.Form],
    apply: Callable[[Any, dict[str, Any]], object],
    done: str,
) -> HttpResponse | None:
    """`apply(obj, cleaned_data)` runs for every selected object once the form is valid."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        each(modeladmin, request, queryset, lambda obj: apply(obj, form.cleaned_data), done)
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
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    apply: Callable[[Model], object],
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
