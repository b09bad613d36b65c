"""Helpers for browser tests that play games through the game page (templates/games/_live.html)."""

from __future__ import annotations

import re
from itertools import count

from playwright.sync_api import Page, expect

from games.engine.fair import die

NO_AUTOMOVE = "localStorage.setItem('ludopat:automove', '0')"


def game_id(page: Page) -> str:
    return re.search(r"/games/([^/]+)/", page.url).group(1)


def live(page: Page):
    return page.get_by_test_id("game-live")


def state(page: Page) -> dict[str, str]:
    """The live board's data attributes: version, status, my-turn, can-roll, awaiting..."""
    return page.evaluate(
        "() => { const el = document.getElementById('game-live'); return el ? {...el.dataset} : {}; }"
    )


def version(page: Page) -> int:
    return int(state(page).get("version", -1))


def wait_past(page: Page, old: int, timeout: float = 10_000) -> None:
    """Until the page shows a version newer than `old` (from its own POST or a WebSocket push)."""
    page.wait_for_function(
        "v => Number(document.getElementById('game-live')?.dataset.version) > v",
        arg=old,
        timeout=timeout,
    )


def token_progress(page: Page, colour: str, index: int) -> int:
    return int(page.get_by_test_id(f"token-{colour}-{index}").get_attribute("data-progress"))


def roll(page: Page) -> None:
    before = version(page)
    page.get_by_test_id("roll").click()
    wait_past(page, before)


def move(page: Page, testid: str) -> None:
    before = version(page)
    page.get_by_test_id(testid).click()
    wait_past(page, before)


def seeds_for(game) -> tuple[str, list[str]]:
    """(server seed, the seats' client seeds in seat order) of a game row."""
    return game.server_seed, [s.client_seed for s in game.seats.order_by("index")]


def client_seed_giving(server_seed: str, seeds: list[str], seat: int, dice: list[int]) -> str:
    """A client seed for `seat` that makes the game's first dice `dice` (RULES.md section 8)."""
    for n in count():
        candidate = f"test{n}"
        joined = "|".join(candidate if i == seat else s for i, s in enumerate(seeds))
        if all(die(server_seed, joined, nonce) == d for nonce, d in enumerate(dice)):
            return candidate
    raise AssertionError("unreachable")


def set_client_seed(page: Page, seat: int, seed: str) -> None:
    """Replace a seat's client seed through the game page's fair-dice panel (before the first roll)."""
    panel = page.locator("details.fair-panel")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    before = version(page)
    page.get_by_test_id(f"client-seed-{seat}").fill(seed)
    page.get_by_test_id(f"client-seed-save-{seat}").click()
    wait_past(page, before)
    expect(page.get_by_test_id(f"client-seed-{seat}")).to_have_value(seed)
