"""Every page of the site fits a 390 px phone: no page scrolls sideways, whoever looks at it.

One walk, one browser: every URL pattern of the URLconf is filled in from a seeded site (players with
games of every kind, finished and staked rounds, chat, reports, ledger entries) and fetched with GET as
an anonymous visitor, a player, a moderator and an admin, at 390x844. Django's stock admin pages are
walked too (as the admin, whose role covers the moderator's) and fit: none is excluded. A page is too wide when the
document scrolls sideways (`scrollWidth` above 390). A URL that doesn't answer GET (a POST-only
action: 405) or answers with something that isn't a page (JSON) has no width to check.

A new URL pattern whose parameter the walk can't fill fails the test with the parameter's name: add a
sample value below.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.conftest import PHONE
from tests.browser.play import PASSWORD, give_code

pytestmark = [pytest.mark.browser, pytest.mark.longest]

# A long username: the navigation must fit it too (wrapped or cut, never pushing the page wider).
PLAYER = "alice_with_a_rather_long_name"
OPPONENT = "bob"
MODERATOR = "mod"
ADMIN = "boss"
NOBODY = "nobody_by_that_name"

# URL names never walked: a redirect out to the object's own page, which the walk visits itself.
SKIPPED = {"admin:view_on_site"}


def seed() -> dict[str, list[str]]:
    """A site with something on every page; returns sample values for each URL parameter name."""
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from accounts.moderation import reports
    from accounts.moderation.roles import ADMIN as ADMIN_ROLE
    from accounts.moderation.roles import MODERATOR as MODERATOR_ROLE
    from accounts.moderation.roles import ensure_roles
    from games import actions
    from games.actions import chat, pauses
    from games.challenges.issuing import do_challenge
    from games.challenges.rules import terms_for
    from games.models import Round
    from games.tournaments.registration import open_tournament
    from tests import factories as f

    ensure_roles()
    player = f.make_user(PLAYER)
    opponent = f.make_user(OPPONENT)
    for name, role in ((MODERATOR, MODERATOR_ROLE), (ADMIN, ADMIN_ROLE)):
        staff = f.make_user(name)
        staff.is_staff = True
        staff.save(update_fields=["is_staff"])
        staff.groups.add(Group.objects.get(name=role))
        f.with_authenticator(staff)  # the desk and the admin open to a session it verified

    me, them = f.member(player), f.member(opponent)
    in_play = f.computer_game(me)
    finished = f.room([player, opponent], ruleset="duel")
    actions.do_resign(finished.pk, them)
    staked = f.finished_staked_game(player, opponent)
    waiting = f.staked_room(them, 100)
    paused = f.timed_room(me, them, seconds=30)
    pauses.do_pause(paused.pk, me)
    chat.do_chat(paused.pk, me, "good luck!")
    line = chat.do_chat(paused.pk, them, "a rude remark")
    report = reports.do_report_message(paused.pk, me, message_id=line.pk, reason="insult")
    now = timezone.now()
    for days in range(0, 120, 3):  # months of results: the player page's charts at their fullest
        order = [player, opponent] if days % 2 else [opponent, player]
        f.write(order, now - timedelta(days=days), ruleset=("classic", "duel")[days % 2])

    tournament = open_tournament(4, 100)  # the lobby lists it; its bracket page has seats to take
    # A challenge waiting for the player: its notice at the top of every page they walk.
    waiting_challenge = do_challenge(them, PLAYER, terms_for("classic", seats=4))
    rounds = Round.objects.exclude(public_id="").order_by("pk")
    return {
        "game_id": [finished.pk, in_play.pk, staked.pk, waiting.pk, paused.pk],
        "public_id": [r.public_id for r in rounds[:2]],
        "username": [PLAYER, NOBODY],
        "ruleset": ["classic", "duel", "places", "twodice", "ludo-king"],
        "mode": ["computer", "local", "friends"],
        "uidb64": ["MQ"],
        "token": ["set-password"],
        "report_id": [str(report.pk)],  # the moderator's desk
        "tournament_id": [str(tournament.pk)],
        "challenge_id": [str(waiting_challenge.pk)],
    }


def admin_samples() -> dict[str, list[str]]:
    """The admin's parameters: an app label and, per model, an object that exists."""
    from django.contrib import admin
    from django.contrib.auth import get_user_model

    apps, objects = set(), {}
    for model in admin.site._registry:
        apps.add(model._meta.app_label)
        first = model._default_manager.order_by("pk").first()
        objects[f"{model._meta.app_label}_{model._meta.model_name}"] = (
            str(first.pk) if first else "1"
        )
    user = get_user_model()
    return {
        "app_label": sorted(apps),
        "objects": objects,
        "user_model": f"{user._meta.app_label}_{user._meta.model_name}",
    }


def url_patterns() -> list[tuple[str, str]]:
    """(name, route) of every named URL pattern, routes joined through includes."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found = []

    def walk(patterns, prefix, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                walk(p.url_patterns, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern) and p.name:
                found.append((namespace + p.name, prefix + str(p.pattern)))

    walk(get_resolver().url_patterns, "", "")
    return found


def paths_to_visit(samples: dict, admin: dict) -> dict[str, list[str]]:
    """Every URL name with the concrete paths the walk fetches for it."""
    from django.urls import reverse

    from ludopat.urls import urlpatterns  # noqa: F401  (the URLconf is loaded)

    visits: dict[str, list[str]] = {}
    missing = []
    for name, route in url_patterns():
        if name in SKIPPED:
            continue
        pattern = _route_params(route)
        if not pattern:
            visits[name] = [reverse(name)]
            continue
        if name.startswith("admin:") and pattern != ["app_label"]:
            # An object's page: the object of the model the name starts with (Django's UserAdmin
            # names its password page auth_user_..., whichever app the user model is in).
            short = name.split(":", 1)[1]
            model = next((m for m in admin["objects"] if short.startswith(m + "_")), None)
            if model is None and short.startswith("auth_user_"):
                model = admin["user_model"]
            values = {p: [admin["objects"].get(model or "", "1")] for p in pattern}
        elif name.startswith("admin:"):
            values = {"app_label": admin["app_label"]}
        else:
            values = {p: samples.get(p) for p in pattern}
        if any(v is None for v in values.values()):
            missing.append(f"{name} ({route})")
            continue
        visits[name] = [reverse(name, kwargs=kw) for kw in _combinations(values)]
    assert not missing, "no sample value for the parameters of: " + ", ".join(missing)
    return visits


def _route_params(route: str) -> list[str]:
    import re

    if route.startswith("^"):  # a regex route (none of ours)
        return re.findall(r"\(\?P<(\w+)>", route)
    return [m.split(":")[-1] for m in re.findall(r"<([^>]+)>", route)]


def _combinations(values: dict[str, list[str]]) -> list[dict[str, str]]:
    """One kwargs dict per sample of the first parameter; the others take their first sample (the
    password reset's uidb64 and token go together)."""
    names = list(values)
    first = names[0]
    return [{first: v, **{n: values[n][0] for n in names[1:]}} for v in values[first]]


def _log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    if username in (MODERATOR, ADMIN):
        give_code(page)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


# One test per person, so that the walks can run side by side (pytest-xdist) instead of one long one.
@pytest.mark.parametrize(
    "who", [None, PLAYER, MODERATOR, ADMIN], ids=["anonymous", "player", "moderator", "admin"]
)
def test_no_page_is_wider_than_a_390_px_phone_for_anyone(live, browser, server, who):
    samples = server(seed)
    visits = server(paths_to_visit, samples, server(admin_samples))
    too_wide: list[str] = []
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, base_url=live.base_url, reduced_motion="reduce")
    context.set_default_timeout(15_000)
    page = context.new_page()
    if who:
        _log_in(page, who)
    seen: set[str] = set()
    for name, paths in visits.items():
        # The admin answers anyone but staff with its log-in page: once is enough. The Admin
        # role holds every permission a moderator has, so the admin's walk sees every admin
        # page a moderator can open (and the moderator's sees the index: what they may open).
        if name.startswith("admin:") and who != ADMIN and name != "admin:index":
            continue
        for path in paths:
            # Asked first without the page (same cookies): a download or a POST-only action
            # would not load as a page.
            answer = context.request.get(path, max_redirects=5)
            if answer.status >= 500:
                errors.append(f"{who or 'anonymous'}: {path} answered {answer.status}")
            if answer.status == 405:
                break  # the URL takes POST only, whatever its parameters
            if "text/html" not in answer.headers.get("content-type", "") or (
                "attachment" in answer.headers.get("content-disposition", "")
            ):
                continue
            # Where a redirect lands on a page already measured (the log-in page for a visitor, a
            # game's page from its short link), there is nothing new to load.
            if answer.url.split("?")[0] in seen:
                continue
            # The page is what was just fetched, served to the navigation as it came (headers and
            # all): the server renders each page once, not twice (the admin's walk is ~150 pages).
            page.route(
                lambda url, landed=answer.url: url == landed,
                lambda route, fetched=answer: route.fulfill(response=fetched),
                times=1,
            )
            page.goto(answer.url)
            seen.add(page.url.split("?")[0])
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                wide = page.evaluate(WIDEST)
                too_wide.append(f"{who or 'anonymous'}: {path} ({name}) is {width} px: {wide}")
    context.close()
    assert not errors, "\n".join(errors)
    assert not too_wide, "pages wider than 390 px:\n" + "\n".join(too_wide)


# Names the elements sticking out past the viewport, to say what to fix.
WIDEST = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > window.innerWidth + 0.5 && r.width > 0) {
      const parent = el.parentElement && el.parentElement.getBoundingClientRect();
      if (!parent || parent.right <= window.innerWidth + 0.5) {
        out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
                 `${el.className && el.className.baseVal === undefined ? '.' + String(el.className).trim().replace(/ +/g, '.') : ''}` +
                 ` (${Math.round(r.right)})`);
      }
    }
  }
  return out.slice(0, 6).join(', ');
}"""
