"""The player page's recent rounds, built in Python (accounts/web/templatetags/round_rows.py), are the
markup the template loop they replace drew, row for row."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import set_script_prefix
from django.utils import timezone

from accounts.web.templatetags.round_rows import recent_round_rows

# The loop as templates/accounts/profile.html had it.
LOOP = Template(
    """{% load l10n profiles coins %}{% localize off %}
        {% for r in rounds %}
          <tr>
            <td>{{ r.ruleset_name }}{% if r.players > 2 %} · {{ r.players }} players{% endif %}{% if r.in_tournament %}<br><span class="tournament-mark">tournament match</span>{% endif %}</td>
            <td>{% for o in r.others %}{% if o.user %}<a href="{{ o.user.username|profile_url }}">{{ o.user.username }}</a>{% else %}{{ o.name }}{% endif %}{% if not forloop.last %}, {% endif %}{% endfor %}</td>
            <td>{{ r.place }} of {{ r.players }}</td>
            <td>{% if r.void %}<span class="muted">void</span>{% elif r.not_counted %}<span class="muted">not counted: {{ r.not_counted }}</span>{% else %}{{ r.points }}{% endif %}{% if r.rating_change is not None %}<br><span class="rating-change">rating {% if r.rating_change > 0 %}+{% endif %}{{ r.rating_change }}</span>{% endif %}{% if r.coins %}<br><span class="coins-won">{{ r.coins|coins_signed }} coins</span>{% endif %}</td>
            <td><time datetime="{{ r.finished_at|date:'c' }}">{{ r.finished_at|date:"j M Y" }}</time></td>
            <td><a href="{% url 'public_replay' r.round.public_id %}">Replay</a></td>
          </tr>
        {% endfor %}{% endlocalize %}"""
)
NAMES = ["ann", "Zoë_1", "a.b+c-d@e", "日本", "x" * 150, "o'neil&co"]
COMPUTER_NAMES = ["Computer (greedy)", '<b>Bot</b> & "friends"', "Anna's bot"]
REASONS = ["", "", "the daily cap on points against one opponent", "a <void> & 'odd' one"]


def random_round(rng: random.Random) -> SimpleNamespace:
    players = rng.randint(2, 4)
    others = [
        SimpleNamespace(user=SimpleNamespace(username=rng.choice(NAMES)), name="")
        if rng.random() < 0.7
        else SimpleNamespace(user=None, name=rng.choice(COMPUTER_NAMES))
        for _ in range(rng.randint(0, players - 1))
    ]
    return SimpleNamespace(
        ruleset_name=rng.choice(["Classic", "Duel", "Places & pairs", "Two <dice>"]),
        players=players,
        others=others,
        place=rng.randint(1, players),
        void=rng.random() < 0.15,
        not_counted=rng.choice(REASONS),
        points=rng.choice([0, 3, 6, 10, 1234]),
        coins=rng.choice([0, 0, 180, -50, 12345]),
        rating_change=rng.choice([None, None, 0, 14, -9]),
        in_tournament=rng.random() < 0.2,
        finished_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(10**6)),
        round=SimpleNamespace(public_id=rng.choice(["r-1", "Ab_9xY", "z" * 24])),
    )


def squeezed(html: str) -> str:
    return re.sub(r">\s+<", "><", str(html)).strip()


@pytest.mark.parametrize("zone", ["UTC", "Asia/Kolkata", "America/St_Johns"])
@pytest.mark.parametrize("prefix", ["/", "/ludo/"])
def test_the_rows_are_the_template_loops_markup(zone, prefix):
    rng = random.Random(f"{zone}{prefix}")
    set_script_prefix(prefix)
    try:
        with timezone.override(zone):
            for _ in range(30):
                rounds = [random_round(rng) for _ in range(rng.randint(0, 20))]
                expected = squeezed(LOOP.render(Context({"rounds": rounds})))
                assert squeezed(recent_round_rows(rounds)) == expected
    finally:
        set_script_prefix("/")
