"""With the Content-Security-Policy on, the site still works in a real browser and the browser reports
no violation: every script and style is a file of ours, htmx evaluates nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.play import state

pytestmark = pytest.mark.browser

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def violations(page) -> list[str]:
    return page.evaluate("window.__cspViolations")


def test_pages_work_under_the_policy_without_violations(new_page):
    page = new_page()
    page.context.add_init_script(WATCH)
    seen = []
    page.goto("/games/new/computer/")
    page.get_by_test_id("computer-ruleset-classic").check(force=True)
    page.get_by_test_id("computer-players-2").check(force=True)
    page.get_by_test_id("computer-submit").click()
    expect(page.get_by_test_id("game-page")).to_be_visible()
    expect(page.get_by_test_id("connection")).to_have_text("Live")  # the WebSocket is allowed
    before = int(state(page)["version"])
    page.get_by_test_id("roll").click()  # htmx posts and swaps
    expect(page.locator("#game-live")).not_to_have_attribute("data-version", str(before))
    seen += violations(page)
    game_url = page.url

    page.goto("/")
    page.once("dialog", lambda dialog: dialog.dismiss())  # "Abandon this game?" (no inline onclick)
    page.get_by_test_id("abandon").first.click()
    expect(page.get_by_test_id("continue-games")).to_be_visible()  # dismissed: nothing abandoned
    seen += violations(page)
    for url in ("/rules/classic/", "/accounts/login/", game_url + "verify/", game_url + "replay/"):
        page.goto(url)
        seen += violations(page)
    assert seen == []
