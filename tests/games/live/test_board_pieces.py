"""The board's tokens and targets, built in Python (games.live.board_pieces), make the DOM the template loop
they replace made: the same elements, attributes and text, on boards of every kind (stacked tokens,
finished ones, a player's movable tokens with their targets and paths)."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from django.template import Context, Template

from games import actions, engine
from games.live.board_view import board_context
from games.live.fragments import render_live
from games.live.viewpoint import viewpoint_for
from tests.games.webplay import awaiting_move, everyone_here, friends_room, member, play_until

# The loop of templates/partials/board.svg.html before the pieces were built in Python, verbatim.
TEMPLATE_LOOP = """{% load l10n %}{% localize off %}
  {% if board_targets %}
  <g class="targets" aria-hidden="true">
    {% for t in board_targets %}
      <g class="target target-{{ t.colour }}" data-token="{{ t.colour }}:{{ t.index }}" data-die="{{ t.die }}" data-pair="{{ t.pair|yesno:'1,0' }}" data-x="{{ t.x }}" data-y="{{ t.y }}">
        <g class="path">{% for p in t.path %}<circle cx="{{ p.x }}" cy="{{ p.y }}" r="4"/>{% endfor %}</g>
        <circle class="target-ring" cx="{{ t.x }}" cy="{{ t.y }}" r="17"/>
      </g>
    {% endfor %}
  </g>
  {% endif %}
  <g class="tokens">
  {% for t in board_tokens %}
    <g class="token token-{{ t.colour }}{% if t.movable %} movable{% endif %}{% if t.last %} last-moved{% endif %}" id="tok-{{ t.colour }}-{{ t.index }}" data-token="{{ t.colour }}:{{ t.index }}" data-testid="token-{{ t.colour }}-{{ t.index }}" data-progress="{{ t.progress }}" transform="translate({{ t.cx }} {{ t.cy }})">
      <title>{{ t.colour|title }} {{ t.label }}, {{ t.where }}</title>
      {% if t.movable %}<rect class="hit" x="-20" y="-20" width="40" height="40"/>{% endif %}
      <g class="tok-in">
      {% if t.movable %}<circle class="halo" r="{{ t.r|add:6 }}"/>{% endif %}
      <circle class="tok-body" r="{{ t.r }}" fill="var(--{{ t.colour }})" stroke="#fff" stroke-width="{% if t.small %}2{% else %}3{% endif %}"/>
      <circle r="{{ t.r }}" fill="url(#tok-shine)" pointer-events="none"/>
      <text y="{% if t.small %}3.5{% else %}5{% endif %}" text-anchor="middle" class="token-label{% if t.small %} small{% endif %}">{{ t.label }}</text>
      </g>
    </g>
  {% endfor %}
  </g>{% endlocalize %}"""


class _Tree(HTMLParser):
    """Elements as (tag, attributes) and text without the whitespace between them."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        self.out.append(("<", tag, tuple(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.out.append(("<", tag, tuple(attrs)))
        self.out.append((">", tag))

    def handle_endtag(self, tag):
        self.out.append((">", tag))

    def handle_data(self, data):
        if data.strip():
            self.out.append(("text", " ".join(data.split())))


def dom(html: str) -> list[tuple]:
    tree = _Tree()
    tree.feed(html)
    return tree.out


def _boards(seed: int = 7, count: int = 300):
    """Random positions of every rule set, with some tokens movable and a target for each."""
    rng = random.Random(seed)
    rulesets = ["classic", "duel", "places", "twodice"]
    colours = ["red", "green", "yellow", "blue"]
    for n in range(count):
        ruleset = rulesets[n % len(rulesets)]
        playing = colours[: rng.choice([2, 3, 4])] if ruleset != "duel" else ["red", "blue"]
        # Stacks are common (the yard, a shared square, home): draw from a few progresses.
        pool = [-1, -1, 0, 5, 5, 13, 20, 51, 52, 55, engine.HOME, engine.HOME]
        tokens = {c: [rng.choice(pool) for _ in range(4)] for c in playing}
        movable, targets = set(), []
        for c in playing:
            for i, p in enumerate(tokens[c]):
                if p < engine.HOME and rng.random() < 0.3:
                    movable.add((c, i))
                    to = min(engine.HOME, max(p, 0) + rng.choice([1, 6, 12]))
                    die = rng.choice([1, 6, "total"])
                    targets.append(
                        {"colour": c, "index": i, "to": to, "die": die, "pair": rng.random() < 0.2}
                    )
        last = rng.choice([None, (playing[0], 0), (playing[-1], 3)])
        yield board_context(
            tokens, ruleset=ruleset, movable=movable, targets=targets, last_moved=last
        )


def test_the_pieces_make_the_dom_the_template_loop_made():
    loop = Template(TEMPLATE_LOOP)
    checked = movable = stacked = 0
    for board in _boards():
        expected = loop.render(Context(board))
        assert dom(board["board_pieces"]) == dom(expected)
        checked += 1
        movable += any(t["movable"] for t in board["board_tokens"])
        stacked += any(t["small"] for t in board["board_tokens"])
    assert checked == 300 and movable > 100 and stacked > 100  # the cases that differ were drawn


def _elements(html: str, tag: str, class_prefix: str) -> list[dict[str, str]]:
    """The attributes of each `tag` element whose class starts with `class_prefix`."""
    found = []
    for item in dom(html):
        if item[0] == "<" and item[1] == tag:
            attrs = dict(item[2])
            if (attrs.get("class") or "").startswith(class_prefix):
                found.append(attrs)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_played_board_shows_every_token_and_the_movers_targets(django_user_model, redis_client):
    """On a real game's page, from the mover's side: every token drawn once, the movable ones as
    such, and a target for each legal move."""
    host = member(django_user_model.objects.create_user("hostess"))
    guest = member(django_user_model.objects.create_user("guesto"))
    game = friends_room(host, [guest])
    everyone_here(game)
    by_seat = {0: host, 1: guest}
    game = play_until(game, lambda seat: by_seat[seat.index], awaiting_move)
    seats = list(game.seats.select_related("user"))
    state = actions.engine_state(game)
    mover = by_seat[actions.turn_seat(game, seats, state).index]
    html = render_live(game, viewpoint_for(game, seats, mover), seats=seats)

    tokens = _elements(html, "g", "token ")
    assert sorted(t["data-token"] for t in tokens) == sorted(
        f"{colour}:{i}"
        for colour, ts in zip(state.colours, state.tokens, strict=True)
        for i in range(len(ts))
    )
    legal = engine.legal_moves(state)
    movable = {t["data-token"] for t in tokens if "movable" in t["class"].split()}
    assert movable == {f"{m.colour}:{m.index}" for m in legal}
    assert len(_elements(html, "g", "target ")) == len(legal)
