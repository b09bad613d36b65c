"""Pushed boards end where a fresh render does: two friends play duel with a third account watching,
and after every action each page's live board, built from the POST answers and the pushes it
got (each push the regions that changed, most of them without the board's ground, which the page
keeps), is the board a fresh render of that page gives, element for element."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.play import (
    game_id,
    log_in,
    open_duel_room,
    play_a_turn,
    same_version,
    start_room,
)
from tests.factories import make_user

pytestmark = pytest.mark.browser

ACTIONS = 24

# The page's #game-live as a list of (tag, attributes, text), without what only the page's own script
# or the clock changes: choosers and hints shown or hidden, a selected or dimmed token, a countdown's
# text, the CSRF token a full page load fills in (htmx sends it in a header), the out-of-band marker.
NORMALISED_DOM = """
(html) => {
  const scripted = new Set(["selected", "shown", "hot", "dim", "rolling", "dragging", "urgent"]);
  const root = html === null
    ? document.getElementById("game-live")
    : new DOMParser().parseFromString(html, "text/html").getElementById("game-live");
  const out = [];
  const walk = (el) => {
    const attrs = [];
    for (const a of el.attributes) {
      if (["hidden", "aria-pressed", "hx-swap-oob", "style"].includes(a.name)) continue;
      if (a.name === "value" && el.name === "csrfmiddlewaretoken") continue;
      let value = a.value;
      if (a.name === "class") value = value.split(/\\s+/).filter((c) => c && !scripted.has(c)).join(" ");
      attrs.push(a.name + "=" + value);
    }
    attrs.sort();
    const timer = el.classList.contains("timer");
    const text = [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent.trim())
      .filter(Boolean)
      .join(" ");
    out.push([el.tagName.toLowerCase(), attrs.join(" "), timer ? "" : text]);
    for (const child of el.children) walk(child);
  };
  walk(root);
  return out;
}
"""


def fresh_board(page: Page) -> list:
    """The board a fresh render gives this page's viewer now (the board's own URL, as on a resync)."""
    html = page.evaluate(
        "async (url) => (await fetch(url, {headers: {'HX-Request': 'true'}})).text()",
        page.locator("#game-live").get_attribute("data-live-url"),
    )
    return page.evaluate(NORMALISED_DOM, html)


def shown_board(page: Page) -> list:
    return page.evaluate(NORMALISED_DOM, None)


# The page's board, then a fresh render of it, in one call to the browser instead of four (the board,
# the URL, the fetch, the fetched HTML sent back to be parsed): three pages after each of 24 actions.
SHOWN_AND_FRESH = f"""
async () => {{
  const normalised = {NORMALISED_DOM.strip()};
  const shown = normalised(null);
  const url = document.getElementById("game-live").dataset.liveUrl;
  const html = await (await fetch(url, {{headers: {{"HX-Request": "true"}}}})).text();
  return [shown, normalised(html)];
}}
"""


def shown_and_fresh(page: Page) -> tuple[list, list]:
    """(the board the page shows, the board a fresh render gives its viewer now), as shown_board and
    fresh_board read them."""
    shown, fresh = page.evaluate(SHOWN_AND_FRESH)
    return shown, fresh


def count_board_frames(page: Page) -> dict[str, int]:
    """Boards the page's socket receives: with the board's ground (the yards and squares), without it
    (a push of the regions that changed, the board's among them or not), and how many were pushes."""
    frames = {"whole": 0, "without_ground": 0, "pushes": 0}

    def on_frame(payload) -> None:
        text = payload if isinstance(payload, str) else ""
        if 'id="game-live"' not in text:
            return
        if text.startswith('<div id="game-live" hx-swap-oob="none" data-from="'):
            frames["pushes"] += 1
        if 'class="cell' in text:
            frames["whole"] += 1
        else:
            frames["without_ground"] += 1

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    return frames


def count_answers_without_ground(page: Page) -> list[int]:
    """The page's POST answers that left out the board's ground (the page named it)."""
    found = [0]

    def on_response(response) -> None:
        if response.request.method == "POST" and response.ok:
            with contextlib.suppress(PlaywrightError):  # a redirect or a closed page has no body
                if 'hx-preserve="true"' in response.text():
                    found[0] += 1

    page.on("response", on_response)
    return found


def test_every_page_shows_what_a_fresh_render_shows_after_live_play(new_page, server):
    server(make_user, "carol")
    alice, bob = open_duel_room(new_page, server)
    carol = new_page()
    frames = count_board_frames(carol)
    log_in(carol, "carol")
    carol.goto(f"/games/{game_id(alice)}/")
    expect(carol.locator("#game-live")).to_have_attribute("data-status", "open")
    answers = [count_answers_without_ground(page) for page in (alice, bob)]
    start_room(alice, bob)
    ground = carol.locator("#board-ground").get_attribute("data-ground")

    for n in range(ACTIONS):
        player, _other = play_a_turn(alice, bob)
        same_version(player, carol)
        for page in (alice, bob, carol):
            shown, fresh = shown_and_fresh(page)
            assert shown == fresh, f"after action {n + 1}"

    # The spectator's board came by pushes of the regions that changed alone, most of them without
    # the ground, which it kept; the players' answers left it out too.
    assert frames["pushes"] >= ACTIONS and frames["without_ground"] >= ACTIONS, frames
    assert sum(found[0] for found in answers) >= ACTIONS // 2, answers
    expect(carol.locator("#board-ground")).to_have_attribute("data-ground", ground)
    assert carol.locator("#board-ground rect.cell").count() == 52 + 20  # track and home columns
