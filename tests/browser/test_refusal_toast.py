"""A refusal on a game page is a sentence: after logging in in another tab, the
page's Roll is refused (its CSRF token is stale), and the toast says so and offers a reload, never the
markup of an error page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessible
from tests.browser.play import NO_AUTOMOVE, log_in, make_user, state

pytestmark = pytest.mark.browser


def test_a_stale_page_says_so_in_a_sentence_and_offers_a_reload(new_page, server):
    server(make_user, "carol")
    page = new_page()
    page.context.add_init_script(NO_AUTOMOVE)
    page.goto("/games/new/computer/")
    page.get_by_test_id("computer-submit").click()
    expect(page.get_by_test_id("game-page")).to_be_visible()
    expect(page.get_by_test_id("roll")).to_be_visible()
    before = state(page)["version"]

    other_tab = page.context.new_page()
    log_in(other_tab, "carol")  # the session, and with it the CSRF secret, changes
    other_tab.close()

    page.get_by_test_id("roll").click()
    toast = page.get_by_test_id("toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("reload the page")
    text = toast.inner_text()
    assert "<" not in text and "CSRF" not in text, text
    assert state(page)["version"] == before  # nothing was played
    check_accessible(page, "refused")
    page.get_by_test_id("toast-reload").click()
    expect(page.get_by_test_id("toast")).to_be_hidden()
    expect(page.get_by_test_id("game-page")).to_be_visible()
