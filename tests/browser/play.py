"""Helpers for browser tests that play games through the game page (templates/games/_live.html)."""

from __future__ import annotations

import re
from itertools import count

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from games.engine.fair import die
from tests.factories import PASSWORD, code_now, make_user

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
    """A client seed for `seat` that makes the game's first dice `dice` (docs/record.md)."""
    for n in count():
        candidate = f"test{n}"
        joined = "|".join(candidate if i == seat else s for i, s in enumerate(seeds))
        if all(die(server_seed, joined, nonce) == d for nonce, d in enumerate(dice)):
            return candidate
    raise AssertionError("unreachable")


def set_client_seed(page: Page, seat: int, seed: str) -> None:
    """Replace a seat's client seed through the game page's fair-dice panel (before the first roll).

    The board (panel included) is re-rendered whenever the page's WebSocket pushes it, as it does
    once on connecting; a push between typing and clicking would lose the typing, so try again."""
    for attempt in range(3):
        panel = page.locator("details.fair-panel")
        if panel.get_attribute("open") is None:
            panel.locator("summary").click()
        before = version(page)
        try:
            page.get_by_test_id(f"client-seed-{seat}").fill(seed, timeout=3000)
            page.get_by_test_id(f"client-seed-save-{seat}").click(timeout=3000)
            wait_past(page, before, timeout=3000)
        except PlaywrightError:
            if attempt == 2:
                raise
            continue
        if page.get_by_test_id(f"client-seed-{seat}").input_value() == seed:
            return
    raise AssertionError(f"seat {seat}'s client seed could not be set to {seed!r}")


# make_user(username): an account with PASSWORD (run it through the `server` fixture: it writes to
# the database). Both are tests/factories.py's.


def log_in(page: Page, username: str, with_code: bool = False) -> None:
    """Log in through the log-in page; `with_code`: an account with an authenticator app
    (factories.with_authenticator) then gives the code its app shows now."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    if with_code:
        give_code(page)
    expect(page.get_by_role("navigation", name="Main")).to_contain_text(username)


def give_code(page: Page) -> None:
    """The log-in's code step, with the code an app holding factories.AUTHENTICATOR_KEY shows now."""
    expect(page.get_by_test_id("login-code")).to_be_visible()
    page.get_by_label("Code", exact=True).fill(code_now())
    page.get_by_role("button", name="Go on").click()


def alice_and_bob(new_page, server, viewport=None) -> tuple[Page, Page]:
    """Two players, alice and bob, logged in each in their own browser context (their own cookies),
    with automatic moves off: (alice, bob) pages."""
    server(make_user, "alice")
    server(make_user, "bob")
    alice, bob = new_page(viewport), new_page(viewport)
    for page in (alice, bob):
        page.context.add_init_script(NO_AUTOMOVE)
    log_in(alice, "alice")
    log_in(bob, "bob")
    return alice, bob


def open_duel_room(new_page, server, viewport=None) -> tuple[Page, Page]:
    """Alice opens a duel room and Bob takes the seat from the invitation link: (alice, bob) pages,
    each in its own browser context (its own cookies), both on the room's page, not yet started."""
    alice, bob = alice_and_bob(new_page, server, viewport)

    alice.goto("/games/new/friends/")
    alice.get_by_test_id("friends-ruleset-duel").check(force=True)
    alice.get_by_test_id("friends-submit").click()
    invite = alice.get_by_test_id("invite-link").input_value()
    expect(alice.get_by_test_id("start")).to_be_disabled()  # the guest's seat is still open

    bob.goto(invite)
    expect(bob.get_by_test_id("lobby")).to_be_visible()
    bob.get_by_test_id("join").click()
    expect(bob.get_by_test_id("player-1")).to_contain_text("bob")
    # Alice's page hears of it over the WebSocket: the seat fills and the start button wakes up.
    expect(alice.get_by_test_id("player-1")).to_contain_text("bob")
    expect(alice.get_by_test_id("start")).to_be_enabled()
    return alice, bob


def start_room(alice: Page, bob: Page) -> None:
    alice.get_by_test_id("start").click()
    for page in (alice, bob):
        expect(live(page)).to_have_attribute("data-status", "playing")


def mark_no_reload(*pages: Page) -> None:
    """Plant a marker that a page reload would wipe."""
    for page in pages:
        page.evaluate("window.__sameDocument = true")


def assert_not_reloaded(*pages: Page) -> None:
    for page in pages:
        assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def same_version(a: Page, b: Page, timeout: float = 10_000) -> None:
    """Until page `b` shows the version page `a` shows."""
    wait_past(b, version(a) - 1, timeout=timeout)
    assert version(b) >= version(a)


def act(page: Page, target, timeout: float = 10_000) -> None:
    """Click `target` (a roll or a move) and wait for the board's next version; a refusal (the page's
    toast) fails the test with the sentence the player was shown."""
    before = version(page)
    page.evaluate(
        "() => { const t = document.getElementById('game-toast'); if (t) t.hidden = true; }"
    )
    target.click()
    # A token with more than one way to move (two dice, a pair) asks which: take the first answer.
    chooser = page.locator(".chooser:not([hidden]) .choice:not([hidden])")
    if chooser.count():
        chooser.first.click()
    page.wait_for_function(
        """v => Number(document.getElementById('game-live')?.dataset.version) > v
               || document.getElementById('game-toast')?.hidden === false""",
        arg=before,
        timeout=timeout,
    )
    if version(page) <= before:
        refusal = page.get_by_test_id("toast").inner_text()
        raise AssertionError(f"the action was refused: {refusal!r}")


def play_a_turn(alice: Page, bob: Page) -> tuple[Page, Page]:
    """Whichever of the two is to play rolls, or moves their first movable token, and the other's
    page shows the new board: (the one who acted, the other)."""
    player, other = (alice, bob) if state(alice)["myTurn"] == "1" else (bob, alice)
    if state(player)["canRoll"] == "1":
        act(player, player.get_by_test_id("roll"))
    else:
        act(player, player.locator(".token-button.movable").first)
    same_version(player, other)
    return player, other
