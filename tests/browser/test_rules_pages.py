"""How to play: from the index to a rule set and its UP Way section, readable on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_rules_from_the_index_to_the_up_way_section(new_page, shoot):
    from tests.browser.conftest import PHONE

    page = new_page(PHONE, is_mobile=True, has_touch=True)
    page.goto("/rules/")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play")
    page.get_by_role("link", name="Places").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Places")
    page.get_by_role("navigation", name="On this page").get_by_role(
        "link", name="UP Way pairs"
    ).click()
    expect(page.get_by_role("heading", name="Option: UP Way pairs")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "rules-places-phone", full_page=False)
    response = page.goto("/rules/ludo-king/")
    assert response.status == 404
    expect(page.get_by_role("heading", name="No such rule set")).to_be_visible()
