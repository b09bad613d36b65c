"""`{% load challenges %}`: every page's waiting challenges (base.html's notice area) and a player's
lists of challenges (the partial the Friends page includes)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from ...challenges import live, reads

register = template.Library()


@register.simple_tag
def challenge_notices(user: Any) -> SafeString:
    """The offers waiting for `user`, as the notices a push would show."""
    if not getattr(user, "is_authenticated", False):
        return mark_safe("")
    return mark_safe("".join(live.render_offer(c) for c in reads.waiting_for(user.pk)))  # noqa: S308  (our templates)


@register.simple_tag
def challenges_of(user: Any) -> dict[str, Any]:
    """{"waiting": offers to answer, "made": the player's own} for the lists' partial."""
    if not getattr(user, "is_authenticated", False):
        return {"waiting": [], "made": []}
    made = reads.made_by(user.pk)
    for challenge in made:
        challenge.answer = live.answer_texts(challenge)[0]  # type: ignore[attr-defined]
        challenge.terms = live.terms_of(challenge).describe()  # type: ignore[attr-defined]
    waiting = reads.waiting_for(user.pk)
    for challenge in waiting:
        challenge.terms = live.terms_of(challenge).describe()  # type: ignore[attr-defined]
    return {"waiting": waiting, "made": made}
