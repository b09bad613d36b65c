"""The replay and verify pages of a finished game, in the browser against the real stack."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.records import play_local_game

pytestmark = pytest.mark.browser


@pytest.fixture
def finished_game(live, server):
    return server(play_local_game, finish=True)


def steps_of(page) -> list[dict]:
    return json.loads(page.locator("#replay-data").text_content())["steps"]


def token_progress(page) -> dict[str, int]:
    return page.eval_on_selector_all(
        ".replay-tokens [data-token]",
        "els => Object.fromEntries(els.map(e => [e.dataset.token, Number(e.dataset.progress)]))",
    )


def expected_progress(step: dict) -> dict[str, int]:
    return {f"{c}-{i}": p for c, ps in step["tokens"].items() for i, p in enumerate(ps)}


def test_replay_steps_through_a_finished_game(finished_game, page, shoot_sizes):
    page.goto(f"/games/{finished_game.pk}/replay/")
    replay = page.get_by_test_id("replay")
    expect(replay).to_have_attribute("data-ready", "1")
    steps = steps_of(page)
    last = len(steps) - 1
    step_number = page.get_by_test_id("replay-step")
    text = page.get_by_test_id("replay-text")

    expect(step_number).to_have_text("0")
    expect(page.get_by_role("button", name="Previous", exact=True)).to_be_disabled()
    assert token_progress(page) == expected_progress(steps[0])

    page.get_by_role("button", name="Next", exact=True).click()
    expect(step_number).to_have_text("1")
    expect(text).to_have_text(steps[1]["text"])

    page.keyboard.press("ArrowRight")  # keys work from anywhere on the page
    expect(step_number).to_have_text("2")
    page.keyboard.press("End")
    expect(step_number).to_have_text(str(last))
    expect(text).to_contain_text("Game over")
    expect(page.get_by_role("button", name="Next", exact=True)).to_be_disabled()
    assert token_progress(page) == expected_progress(steps[last])
    assert sum(p == 56 for p in token_progress(page).values()) >= 2  # the winner's tokens are home

    middle = last // 2
    page.get_by_role("slider", name="Step").fill(str(middle))
    expect(step_number).to_have_text(str(middle))
    assert token_progress(page) == expected_progress(steps[middle])
    expect(page.locator(f'.replay-log li[data-n="{middle}"]')).to_have_attribute(
        "aria-current", "step"
    )

    page.locator('.replay-log [data-jump="3"]').click()  # the move list jumps too
    expect(step_number).to_have_text("3")
    page.keyboard.press("Home")
    expect(step_number).to_have_text("0")
    page.get_by_role("button", name="Last", exact=True).click()
    shoot_sizes(page, "replay")


def test_replay_plays_itself_and_links_to_a_step(finished_game, new_page, server):
    page = new_page()
    page.goto(f"/games/{finished_game.pk}/replay/")
    expect(page.get_by_test_id("replay")).to_have_attribute("data-ready", "1")
    steps = steps_of(page)
    expect(page.get_by_text("Keys: ← and →")).to_be_visible()  # a keyboard: its keys are told
    page.get_by_test_id("replay-speed").select_option("Fast")
    play = page.get_by_test_id("replay-play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_text("Pause")
    step = page.get_by_test_id("replay-step")
    expect(step).not_to_have_text("0")
    expect(step).not_to_have_text("1")  # it goes on by itself, step after step
    play.click()
    expect(play).to_have_text("Play")
    paused_at = int(step.inner_text())
    assert page.url.endswith(f"#step-{paused_at}")

    # A link to a step opens the replay there, on a phone too (where no keys are offered).
    link = page.get_by_test_id("replay-step-link").get_attribute("href")
    assert link == f"#step-{paused_at}"
    phone = new_page(PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"/games/{finished_game.pk}/replay/#step-5")
    expect(phone.get_by_test_id("replay-step")).to_have_text("5")
    expect(phone.get_by_test_id("replay-text")).to_have_text(steps[5]["text"])
    expect(phone.get_by_text("Keys: ← and →")).to_be_hidden()
    lead = phone.locator(".lead")
    expect(lead).not_to_contain_text("Twodice")
    expect(lead).to_contain_text("Classic ·")


def test_verify_page_confirms_every_roll(finished_game, page, shoot_sizes):
    record = page.request.get(f"/games/{finished_game.pk}/record.json").json()
    rolls = sum("roll" in a for a in record["actions"])
    page.goto(f"/games/{finished_game.pk}/verify/")
    result = page.get_by_test_id("verify-result")
    expect(result).to_have_text(re.compile(rf"^All {rolls} rolls verified"))
    expect(result).to_have_attribute("data-state", "ok")
    expect(page.locator("[data-field=server-seed]")).to_have_text(record["fair"]["server_seed"])
    page.get_by_text("Every roll", exact=True).click()
    expect(page.locator("[data-verify-rolls] tbody tr")).to_have_count(rolls)
    # The command line is a note for developers, folded away, not an instruction to players.
    command = page.get_by_text("python -m games.engine verify")
    expect(command).to_be_hidden()
    page.get_by_text("For developers").click()
    expect(command).to_be_visible()
    shoot_sizes(page, "verify")


def test_verify_page_names_a_roll_that_does_not_match(finished_game, page):
    """A record altered on its way to the browser: the page must catch it, not trust it."""
    record = page.request.get(f"/games/{finished_game.pk}/record.json").json()
    at = [i for i, a in enumerate(record["actions"]) if "roll" in a][4]
    shown = record["actions"][at]["roll"][0]
    record["actions"][at]["roll"] = [shown % 6 + 1]
    page.route(
        f"**/games/{finished_game.pk}/record.json",
        lambda route: route.fulfill(json=record),
    )
    page.goto(f"/games/{finished_game.pk}/verify/")
    result = page.get_by_test_id("verify-result")
    expect(result).to_have_attribute("data-state", "mismatch")
    expect(result).to_contain_text(f"Roll 5 (action {at} of the record) does not match")
    expect(result).to_have_attribute("data-at", str(at))


def test_verify_page_waits_for_the_end_of_a_game(live, server, page):
    game = server(play_local_game, finish=False)
    page.goto(f"/games/{game.pk}/verify/")
    result = page.get_by_test_id("verify-result")
    expect(result).to_have_attribute("data-state", "unfinished")
    expect(result).to_contain_text("not over yet")
    expect(page.locator("[data-field=commitment]")).to_have_text(game.server_seed_sha256)


def test_a_missing_game_is_a_clear_404(page):
    response = page.goto("/games/not-a-game-id/verify/")
    assert response.status == 404
    expect(page.get_by_role("heading", name="No such game")).to_be_visible()
