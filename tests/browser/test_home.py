"""The home page in a real browser against the real stack: landmarks, and the live online count."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ONLINE = re.compile(r"(\d+) players? online")


def online(page) -> int:
    return int(ONLINE.search(page.locator("#online-count").inner_text()).group(1))


def test_home_page_has_its_landmarks(page, shoot):
    page.goto("/")
    expect(page).to_have_title(re.compile("Ludopat"))
    expect(page.get_by_role("banner")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_role("main")).to_be_visible()
    expect(page.get_by_role("contentinfo")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("Ludo board"))).to_be_visible()
    shoot(page, "home-desktop")


def settle_online_count(timeout: float = 10.0) -> None:
    """Let the pages of earlier tests finish disconnecting, so the count only moves for ours."""
    from accounts.users.online import online_count

    deadline = time.monotonic() + timeout
    while online_count() and time.monotonic() < deadline:
        time.sleep(0.1)


def test_online_count_goes_up_live_when_a_second_person_opens_the_site(new_page):
    settle_online_count()
    first = new_page()
    first.goto("/")
    # The first page's own WebSocket counts it: wait until the pushed count includes it.
    expect(first.locator("#online-count")).to_contain_text(ONLINE)
    first.wait_for_function(
        "() => /[1-9]\\d* players? online/.test(document.getElementById('online-count').innerText)"
    )
    before = online(first)

    second = new_page()  # a separate browser context: another person, not another tab
    second.goto("/")
    expect(first.locator("#online-count")).to_have_text(
        re.compile(rf"\b{before + 1} players online"), timeout=10_000
    )
    expect(second.locator("#online-count")).to_have_text(
        re.compile(rf"\b{before + 1} players online")
    )

    second.close()  # leaving is live too
    expect(first.locator("#online-count")).to_have_text(
        re.compile(rf"\b{before} players? online"), timeout=10_000
    )


def test_home_page_on_a_phone(new_page, shoot):
    from tests.browser.conftest import PHONE

    page = new_page(PHONE, is_mobile=True, has_touch=True)
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    toggle = page.get_by_role("button", name="Menu")
    if toggle.is_visible():
        expect(toggle).to_have_attribute("aria-expanded", "false")
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > w + 0.5)
            .slice(0, 8)
            .map(e => `<${e.tagName.toLowerCase()} class="${e.getAttribute('class') || ''}">`
                      + ` right edge ${Math.round(e.getBoundingClientRect().right)}px`)""",
        PHONE["width"],
    )
    assert width <= PHONE["width"], (
        f"the home page scrolls sideways on a phone ({width}px wide): {wide}"
    )
    shoot(page, "home-phone")
