"""Moderation bites at once, on every process: the standing test of moderation.

The production shape of test_scale_out.py (two daphne processes, two Celery workers, beat, one database,
one Redis), with players' pages as WebSocket clients and plain HTTP browsers on both processes:

- a ban: after it commits, nothing is played in the account's name, whatever it had open: its game
  page's sockets on either process (even when the message closing them never arrives, as when the
  channel layer's Redis was unreachable at the ban's commit), its POSTs from every session it had, its running
  staked game (settled as giving up, coins as the ledger says), its open staked room and (in the timed
  ban's scene) its quick-match entry (withdrawn, stake refunded);
- a mute: after it commits, no chat line from the account is accepted (socket and POST, both processes);
- a rename: after it commits, the old name is in no render of either process (game page, live fragment,
  the sockets' boards and chat, replays, leaderboard, player pages);
- a timed ban's end: the player logs in and plays again;
- and at the end of each: the ledger's invariants hold and the standings equal a recomputation from
  the counted results.

"After the ban commits" is read off the game's version once `do_ban` has returned: an action of the
account's seat with a later version, which the account itself made, is a command that got through.
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.error
import urllib.request
from collections import defaultdict
from datetime import UTC, timedelta
from urllib.parse import urlencode

import pytest
from channels.db import database_sync_to_async as in_db
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from websockets.exceptions import ConnectionClosed

from accounts.ledger import rules
from accounts.moderation import bans, mutes, renames
from accounts.users import sockets as user_sockets
from accounts.users.sockets import CLOSED_BY_MODERATOR
from games import actions
from games.actions import SeatSpec, TimerSpec, pauses
from games.models import Action, ChatMessage, Game, Round, Seat
from games.staking.quick import do_quick_match
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from tests.accounts.moderation.conftest import PASSWORD, staff
from tests.games.webplay import fresh, member, turn_seat
from tests.integration.browsers import Page, is_board, next_action, session_for, version_of
from tests.integration.conftest import wait_for
from tests.ledger_checks import assert_ledger_ok, ledger_stays_balanced  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

STAKE = 100
STAKED_TIMER = 30  # seconds per action: no timeout fires while a test sets its scene
ROOM_TIMER = TimerSpec(30, 2, 120)  # a timed room between people: pauses, and with them the chat
TOAST = 'id="game-toast"'
ANSWER_WAIT = 5.0  # seconds a page waits for the answer to a command (a toast, a board, a close)


# --- a browser without JavaScript, on either process ----------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer of its own (its status and Location are checked)


_OPENER = urllib.request.build_opener(_NoRedirect)


class Browser:
    """One browser's cookies (a cookie is per host, not per port: the same browser on both
    processes), the CSRF token htmx sends, and htmx's header on actions."""

    def __init__(self, name: str, session_key: str = ""):
        self.name = name
        self.cookies: dict[str, str] = {}
        if session_key:
            self.cookies[django_settings.SESSION_COOKIE_NAME] = session_key

    @property
    def session_key(self) -> str:
        return self.cookies.get(django_settings.SESSION_COOKIE_NAME, "")

    def _request(self, port: int, path: str, data: dict | None, htmx: bool):
        body = urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body)
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if data is not None:
            request.add_header("X-CSRFToken", self.cookies.get("csrftoken", ""))
        if htmx:
            request.add_header("HX-Request", "true")
        try:
            response = _OPENER.open(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            for cookie in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                value = rest.split(";", 1)[0].strip('"')
                if value and "max-age=0" not in cookie.lower():
                    self.cookies[name] = value
                else:
                    self.cookies.pop(name, None)
            html = response.read().decode(errors="replace")
            return response.status, response.headers.get("Location", ""), html

    async def get(self, port: int, path: str) -> tuple[int, str, str]:
        return await asyncio.to_thread(self._request, port, path, None, False)

    async def post(self, port: int, path: str, data: dict, htmx: bool = True):
        return await asyncio.to_thread(self._request, port, path, data, htmx)

    async def get_csrf_cookie(self, port: int) -> None:
        """A page with a form sets the CSRF cookie that htmx's POSTs send back."""
        await self.get(port, "/games/new/computer/")
        assert self.cookies.get("csrftoken"), f"{self.name}: no CSRF cookie"

    async def log_in(self, port: int, username: str, password: str = PASSWORD) -> int:
        """Through the log-in page (the session it makes is the one a ban must end)."""
        _, _, html = await self.get(port, "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        fields = {"csrfmiddlewaretoken": token, "username": username, "password": password}
        status, _, _ = await self.post(port, "/accounts/login/", fields, htmx=False)
        return status


# --- pages and what a command on one got back ---------------------------------------------------------


def is_closed(page: Page) -> bool:
    return page.ws.close_code is not None


async def answer_to(page: Page, action: str, values: dict, shown: int | None = None) -> str:
    """Send a command on a page and say what came back: "refused: <toast>", "closed (<code>)",
    "accepted (board <version>)" (a board newer than the one the page shows: `shown`, or the version
    the command names) or "no answer"."""
    since = len(page.frames)
    sent_version = values.get("version", -1) if shown is None else shown
    try:
        await page.send(action, **values)
    except ConnectionClosed:
        return f"closed ({page.ws.close_code})"
    end = time.monotonic() + ANSWER_WAIT
    while time.monotonic() < end:
        for frame in page.frames[since:]:
            if TOAST in frame[:200]:
                return "refused: " + re.sub(r"<[^>]+>", "", frame).strip()
            if is_board(frame) and version_of(frame) > sent_version:
                return f"accepted (board {version_of(frame)})"
        if is_closed(page):
            return f"closed ({page.ws.close_code})"
        await asyncio.sleep(0.05)
    return "no answer"


def got_through(what: str, outcome: str) -> bool:
    """A socket command answered by a newer board, or a game action's POST answered 200. (The staked
    lobby's POSTs redirect either way, and a command nobody answered may still have been played:
    both are judged on the database.)"""
    if what.startswith("POST staked/"):
        return False
    if what.startswith("POST "):
        return outcome.startswith("200")
    return outcome.split(": ", 1)[1].startswith("accepted")


async def close_all(pages) -> None:
    for page in pages:
        if not is_closed(page):
            await page.close()


# --- the scene ----------------------------------------------------------------------------------------


def people(*names: str, password: bool = False):
    """Accounts (with the password the log-in page is given, for those who log in through it)."""
    users = get_user_model().objects
    return [users.create_user(name, password=PASSWORD if password else None) for name in names]


def moderator():
    return staff(get_user_model(), "mod", "Moderator")


def timed_room(host, guest, ruleset: str = "twodice") -> Game:
    game = actions.create_game(
        member(host),
        "friends",
        ruleset,
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        ROOM_TIMER,
    )
    actions.do_join(game.pk, member(guest))
    actions.do_start(game.pk, member(host))
    return fresh(game)


def staked_game(host, guest) -> Game:
    game = do_create_staked_room(member(host), "twodice", STAKE, STAKED_TIMER)
    do_join_staked_room(member(guest), game.pk)
    return fresh(game)


def game_and_room(host, player) -> tuple[Game, Game]:
    """`player` in `host`'s staked game and with a staked room open, two commitments at once as the
    doors that didn't ask left some (staking.commitments refuses the second now): a ban gives up
    both."""
    waiting = do_create_staked_room(member(player), "twodice", STAKE, STAKED_TIMER)
    Game.objects.filter(pk=waiting.pk).update(status=Game.Status.FINISHED)  # out of sight
    staked = staked_game(host, player)
    Game.objects.filter(pk=waiting.pk).update(status=Game.Status.OPEN)
    return staked, fresh(waiting)


def seat_index(game_id: str, user) -> int:
    return Seat.objects.get(game_id=game_id, user=user).index


def command_for(game_id: str, index: int) -> tuple[str, dict]:
    """What the seat's page would send now: its turn's roll or first legal move at the current
    version (a roll at the current version if it is not the seat's turn: still a command)."""
    game = Game.objects.get(pk=game_id)
    turn = turn_seat(game) if game.status == Game.Status.PLAYING else None
    if turn is not None and turn.index == index and not game.is_paused:
        _, name, values = next_action(game_id)
        return name, values
    return "roll", {"version": game.version}


async def play_one(game_id: str, pages_by_seat: dict[int, Page]) -> int:
    """The seat to act plays its next action on its page; returns the seat's index."""
    index, name, values = await in_db(next_action)(game_id)
    await pages_by_seat[index].send(name, **values)
    await pages_by_seat[index].board_at(values["version"] + 1)
    return index


def theirs_after(game_id: str, user, version: int) -> list[tuple[int, str, str]]:
    """(version, kind, text) of the actions on the account's seats after `version`, but for those the
    computer played for a seat whose time ran out or whose player was away (marked as such). The
    computer standing in for a banned seat is set to wait longer than the checks take (the ban's own
    transaction schedules it), so every other action there is a command that got through."""
    return list(
        Action.objects.filter(game_id=game_id, seat__user=user, seq__gt=version, auto="")
        .order_by("seq")
        .values_list("seq", "kind", "text")
    )


def open_entries(user) -> list[str]:
    return list(
        Game.objects.filter(owner=user, stake__gt=0, status=Game.Status.OPEN).values_list(
            "pk", flat=True
        )
    )


# --- the books ----------------------------------------------------------------------------------------


def standings_as_recorded_and_recomputed() -> tuple[dict, dict, int]:
    """The stored standings, and the same sums recomputed here from the counted results (every rule
    set and "all", the all-games board and, against people, that one too, in the result's UTC week,
    month and all time); all-zero rows are left out of both. And how many results counted."""
    from leaderboard.models import ALL_RULESETS, Result, Standing
    from leaderboard.periods import ALL_TIME_START

    recomputed: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    counted = list(Result.objects.filter(counted=True))
    for row in counted:
        day = row.finished_at.astimezone(UTC).date()
        windows = [
            ("week", day - timedelta(days=day.weekday())),
            ("month", day.replace(day=1)),
            ("all", ALL_TIME_START),
        ]
        boards = ["all", "people"] if row.against_people else ["all"]
        for ruleset in (row.ruleset, ALL_RULESETS):
            for board in boards:
                for period, start in windows:
                    sums = recomputed[(row.user_id, ruleset, board, period, start)]
                    sums[0] += row.points
                    sums[1] += 1
                    sums[2] += row.place == 1
                    sums[3] += row.coins
    stored = {
        (s.user_id, s.ruleset, s.board, s.period, s.start): [s.points, s.games, s.wins, s.coins]
        for s in Standing.objects.all()
    }
    keep = {k: v for k, v in stored.items() if any(v)}
    return keep, {k: v for k, v in recomputed.items() if any(v)}, len(counted)


async def books_problems(rounds_expected: bool = True) -> list[str]:
    """What is wrong with the ledger (tests/ledger_checks.py's invariants) and the standings (against
    a recomputation from the counted results): nothing, if they hold."""
    problems = []
    try:
        await in_db(assert_ledger_ok)()
    except AssertionError as error:
        problems.append(str(error))
    stored, recomputed, counted = await in_db(standings_as_recorded_and_recomputed)()
    if rounds_expected and not counted:
        problems.append("the scene counted no round: the standings' check would prove nothing")
    if stored != recomputed:
        differ = sorted(
            set(stored) ^ set(recomputed)
            | {k for k in set(stored) & set(recomputed) if stored[k] != recomputed[k]},
            key=str,
        )
        problems.append(
            "the standings differ from a recomputation from the counted results: "
            + "; ".join(
                f"{k}: {stored.get(k)} stored, {recomputed.get(k)} recomputed" for k in differ
            )
        )
    return problems


async def assert_books_hold(rounds_expected: bool = True) -> None:
    problems = await books_problems(rounds_expected)
    assert not problems, "\n".join(problems)


# --- ban ----------------------------------------------------------------------------------------------


async def test_after_a_ban_nothing_is_played_in_the_accounts_name(sites, settings, monkeypatch):
    from accounts.ledger.history import balance_of

    p0, p1 = sites.ports
    villain, friend, rich = await in_db(people)("villain", "friend", "rich", password=True)
    mod = await in_db(moderator)()
    grant = await in_db(balance_of)(villain.pk)

    # The villain's browsers: logged in through each process's log-in page (sessions a ban must end),
    # and one session from before the session index (a ban must end those too).
    browsers = [Browser("villain@0"), Browser("villain@1")]
    for browser, port in zip(browsers, sites.ports, strict=True):
        assert await browser.log_in(port, "villain") == 302
    legacy = Browser("villain-legacy", await in_db(session_for)(villain))
    for browser in [*browsers, legacy]:
        await browser.get_csrf_cookie(p0)

    # An open page in a running room, a running staked game, an open staked room.
    room = await in_db(timed_room)(villain, friend)
    staked, waiting = await in_db(game_and_room)(rich, villain)
    mine = await in_db(seat_index)(room.pk, villain)
    friend_page = await Page.open("friend", p1, room.pk, await in_db(session_for)(friend))
    room_pages = [
        await Page.open("villain@0 (close lost)", p0, room.pk, browsers[0].session_key),
        await Page.open("villain@1 (close lost)", p1, room.pk, browsers[1].session_key),
        await Page.open("villain@0", p0, room.pk, browsers[0].session_key),
    ]
    staked_pages = [
        await Page.open("villain@0 staked (close lost)", p0, staked.pk, browsers[0].session_key),
        await Page.open("villain@1 staked (close lost)", p1, staked.pk, browsers[1].session_key),
    ]
    pages = [friend_page, *room_pages, *staked_pages]
    try:
        # Before the ban the villain's socket plays (the commands below would be accepted), and the
        # room is brought to the villain's turn.
        by_seat = {mine: room_pages[0], 1 - mine: friend_page}
        played = False
        for _ in range(30):
            turn = (await in_db(next_action)(room.pk))[0]
            if played and turn == mine:
                break
            played |= await play_one(room.pk, by_seat) == mine
        assert played and (await in_db(next_action)(room.pk))[0] == mine

        # The ban. (The computer that stands in for a banned seat waits long enough here that every
        # action on that seat during the checks below is the account's own.)
        # Its message closing the account's sockets is lost on the way, as when the channel layer's
        # Redis was unreachable at the ban's commit (the layer keeps no message): every open page of
        # the account is still connected to its process as the player.
        settings.LUDOPAT_BOT_DELAY = 30
        with monkeypatch.context() as lost:
            lost.setattr(user_sockets, "close_user_sockets", lambda user_id: None)
            await in_db(bans.do_ban)(mod, villain, reason="Cheating")
        settings.LUDOPAT_BOT_DELAY = 0.05
        banned_at = {g.pk: (await in_db(fresh)(g)).version for g in (room, staked, waiting)}

        # Its sockets, on both processes: each sends what its page would send now.
        outcomes = {}
        for page in room_pages[:2]:  # the third sends nothing: it is closed by the message below
            name, values = await in_db(command_for)(room.pk, mine)
            outcomes[page.name] = f"{name}: " + await answer_to(page, name, values)
        for page in staked_pages:
            index = await in_db(seat_index)(staked.pk, villain)
            name, values = await in_db(command_for)(staked.pk, index)
            outcomes[page.name] = f"{name}: " + await answer_to(page, name, values)
            shown = (await in_db(fresh)(staked)).version
            outcomes[page.name + " resign"] = "resign: " + await answer_to(
                page, "resign", {}, shown
            )

        # Its POSTs, from every session it had, on both processes.
        for browser in [*browsers, legacy]:
            for port in sites.ports:
                name, values = await in_db(command_for)(room.pk, mine)
                status, _, body = await browser.post(port, f"/games/{room.pk}/{name}", values)
                outcomes[f"POST {name} {browser.name}->{port}"] = f"{status} {body[:80]!r}"
                status, _, body = await browser.post(port, f"/games/{staked.pk}/resign", {})
                outcomes[f"POST resign {browser.name}->{port}"] = f"{status} {body[:80]!r}"
                new_room = {"stake": STAKE, "ruleset": "twodice", "timer": 30}
                status, where, _ = await browser.post(port, "/staked/new", new_room, htmx=False)
                outcomes[f"POST staked/new {browser.name}->{port}"] = f"{status} {where}"
                quick = {"tier": STAKE, "ruleset": "twodice"}
                status, where, _ = await browser.post(port, "/staked/quick", quick, htmx=False)
                outcomes[f"POST staked/quick {browser.name}->{port}"] = f"{status} {where}"

        # Every way the ban can be broken is collected, so that one failure names them all.
        broken = [
            f"not refused: {what} -> {outcome}"
            for what, outcome in outcomes.items()
            if got_through(what, outcome)
        ]
        # Nothing in its name after the ban committed: no action of its seats, no new staked entry.
        for game in (room, staked, waiting):
            after = await in_db(theirs_after)(game.pk, villain, banned_at[game.pk])
            if after:
                broken.append(f"played in its name in {game.pk} after the ban: {after}")
        if entries := await in_db(open_entries)(villain):
            broken.append(f"a staked room or quick-match entry opened after the ban: {entries}")
        # The close message, sent now, reaches the page that sent nothing through the account's group
        # on its process, and closes it as the ban's.
        await in_db(user_sockets.close_user_sockets)(villain.pk)
        end = time.monotonic() + ANSWER_WAIT
        while not is_closed(room_pages[2]) and time.monotonic() < end:
            await asyncio.sleep(0.05)
        if room_pages[2].ws.close_code != CLOSED_BY_MODERATOR:
            broken.append(f"the page's socket was not closed: {room_pages[2].ws.close_code}")

        # The running staked game: settled as the villain giving up, the pot to the opponent less
        # the house's cut; the open room withdrawn and its stake refunded.
        settled = await in_db(fresh)(staked)
        villain_seat = await in_db(seat_index)(staked.pk, villain)
        if settled.status != Game.Status.FINISHED or settled.result_places[:1] != [
            1 - villain_seat
        ]:
            broken.append(f"staked game: {settled.status}, places {settled.result_places}")
        if (status := (await in_db(fresh)(waiting)).status) == Game.Status.OPEN:
            broken.append(f"the open staked room is still {status}")
        coins = [await in_db(balance_of)(u.pk) for u in (villain, rich)]
        expected = [grant - STAKE, grant + STAKE - rules.rake_of(2 * STAKE)]
        if coins != expected:
            broken.append(f"coins of (villain, opponent): {coins}, not {expected}")
        broken += await books_problems()
        assert not broken, "the ban did not bite:\n" + "\n".join(broken)
    finally:
        await close_all(pages)


# --- mute ---------------------------------------------------------------------------------------------


MUTE_REASON = "Insults in chat"  # a muted player's refusal says why


async def test_after_a_mute_no_chat_line_of_the_account_is_accepted(sites):
    p0, p1 = sites.ports
    chatter, friend = await in_db(people)("chatter", "friend")
    mod = await in_db(moderator)()
    game = await in_db(timed_room)(chatter, friend)
    await in_db(pauses.do_pause)(game.pk, member(friend))  # the chat opens
    game = await in_db(fresh)(game)
    chatter_key, friend_key = await in_db(session_for)(chatter), await in_db(session_for)(friend)
    says = [
        await Page.open("chatter@0", p0, game.pk, chatter_key),
        await Page.open("chatter@1", p1, game.pk, chatter_key),
    ]
    hears = [
        await Page.open("friend@0", p0, game.pk, friend_key),
        await Page.open("friend@1", p1, game.pk, friend_key),
    ]
    browser = Browser("chatter", chatter_key)
    await browser.get_csrf_cookie(p0)
    try:
        # Before the mute a line said on one process is read on both (the check below can fail).
        await says[0].send("chat", text="before the mute")
        for page in hears:
            await page.wait_for(lambda f: "before the mute" in f, 5)

        until = timezone.now() + timedelta(hours=1)
        await in_db(mutes.do_mute)(mod, chatter, until=until, reason=MUTE_REASON)

        outcomes = {}
        for n, page in enumerate(says):
            text = f"after the mute, socket {n}"
            outcomes[page.name] = await answer_to(page, "chat", {"text": text}, game.version)
        for port in sites.ports:
            text = f"after the mute, POST to {port}"
            status, _, body = await browser.post(port, f"/games/{game.pk}/chat", {"text": text})
            outcomes[f"POST->{port}"] = f"{status} {body[:100]}"
        for what, outcome in outcomes.items():
            if what.startswith("POST"):
                assert outcome.startswith("403") and MUTE_REASON in outcome, (what, outcome)
            else:
                assert outcome.startswith("refused") and MUTE_REASON in outcome, (what, outcome)

        await asyncio.sleep(1.0)  # a line that got through would have reached the pages by now
        lines = await in_db(
            lambda: list(ChatMessage.objects.filter(user=chatter).values_list("text", flat=True))
        )()
        assert lines == ["before the mute"]
        for page in hears:
            assert not [f for f in page.frames if "after the mute" in f], page.name
    finally:
        await close_all([*says, *hears])
    await assert_books_hold(rounds_expected=False)


# --- rename -------------------------------------------------------------------------------------------

OLD_NAME, NEW_NAME = "Rudeboy7x", "Renamed7x"


def where_named(html: str) -> str:
    """Where the old name appears (the text around each place, tags taken out), and whether the
    render shows the new name too (a fresh render of stale stored text) or not (a stale render)."""
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    places = []
    for found in re.finditer(OLD_NAME, text):
        around = text[max(0, found.start() - 50) : found.end() + 30]
        if around not in places:
            places.append(around)
    fresh_render = "also shows the new name" if NEW_NAME in html else "no new name in it"
    return f"{len(places)} place(s), {fresh_render}: " + " | ".join(places[:4])


async def test_after_a_rename_no_process_shows_the_old_name(sites):
    p0, p1 = sites.ports
    rude, friend = await in_db(people)(OLD_NAME, "plainfriend")
    mod = await in_db(moderator)()
    game = await in_db(timed_room)(rude, friend)
    rude_key, friend_key = await in_db(session_for)(rude), await in_db(session_for)(friend)
    rude_index = await in_db(seat_index)(game.pk, rude)
    pages = [
        await Page.open("rude@0", p0, game.pk, rude_key),
        await Page.open("friend@1", p1, game.pk, friend_key),
        await Page.open("rude@1", p1, game.pk, rude_key),
        await Page.open("friend@0", p0, game.pk, friend_key),
    ]
    by_seat = {rude_index: pages[0], 1 - rude_index: pages[1]}
    try:
        # A few moves (the move log names the players), a chat line in a pause, then the friend
        # resigns: the round ends, counted, with its replay, standings and player pages.
        for _ in range(4):
            await play_one(game.pk, by_seat)
        version = (await in_db(fresh)(game)).version
        await pages[1].send("pause")
        await pages[0].board_at(version + 1)
        await pages[0].send("chat", text="good luck")
        await pages[1].wait_for(lambda f: "good luck" in f, 5)
        await pages[1].send("resume")
        await pages[0].board_at(version + 2)
        await pages[1].send("resign")
        finished = await in_db(wait_for)(lambda: fresh(game).result_places and fresh(game), 10)
        for page in pages:
            await page.board_at(finished.version)
        public_id = await in_db(
            lambda: Round.objects.filter(game_id=game.pk).values_list("public_id", flat=True)[0]
        )()

        viewers = [Browser("friend", friend_key), Browser("stranger")]

        def paths(name: str) -> list[str]:
            return [
                f"/games/{game.pk}/",
                f"/games/{game.pk}/live",
                f"/games/{game.pk}/replay/",
                f"/games/{game.pk}/record.json",
                f"/replays/{public_id}/",
                f"/replays/{public_id}/record.json",
                "/leaderboard/",
                f"/u/{name}/",
                "/u/plainfriend/",
            ]

        async def renders(name: str) -> dict[str, tuple[int, str]]:
            shown = {}
            for viewer in viewers:
                for port in sites.ports:
                    for path in paths(name):
                        status, _, html = await viewer.get(port, path)
                        shown[f"{viewer.name} {port} {path}"] = (status, html)
            return shown

        # Every process has rendered the finished game and the pages about it (what a process keeps
        # in memory, it has now), and they name the player as they are called today.
        before = await renders(OLD_NAME)
        for what in ("/games/", "/leaderboard/", f"/u/{OLD_NAME}/"):
            assert any(what in k and OLD_NAME in html for k, (_, html) in before.items()), what

        await in_db(renames.do_rename)(mod, rude, new_username=NEW_NAME, reason="Offensive name")

        after = await renders(NEW_NAME)
        not_shown = {k: status for k, (status, _) in after.items() if status != 200}
        assert not not_shown, f"pages that did not render: {not_shown}"
        still = {k: where_named(html) for k, (_, html) in after.items() if OLD_NAME in html}
        # ... and the sockets of both processes: the board and chat a page gets when it resyncs.
        for page in pages:
            mark = len(page.frames)
            await page.ws.send('{"resync": -1}')
            await page.wait_for(is_board, 5, since=mark)
            await page.wait_for(lambda f: "chat-log" in f, 5, since=mark)
            for frame in page.frames[mark:]:
                if OLD_NAME in frame:
                    still[f"socket {page.name}"] = where_named(frame)
        problems = [f"the old name is shown by {what}: {text}" for what, text in still.items()]
        problems += await books_problems()
        assert not problems, "\n".join(problems)
    finally:
        await close_all(pages)


# --- a timed ban's end --------------------------------------------------------------------------------


async def test_a_timed_ban_withdraws_the_quick_match_entry_and_ends_on_time(sites):
    from accounts.ledger.history import balance_of

    p0, p1 = sites.ports
    (cooled,) = await in_db(people)("cooled", password=True)
    mod = await in_db(moderator)()
    grant = await in_db(balance_of)(cooled.pk)
    before_ban = Browser("cooled@0")
    assert await before_ban.log_in(p0, "cooled") == 302
    legacy = Browser("cooled-legacy", await in_db(session_for)(cooled))
    for browser in (before_ban, legacy):
        await browser.get_csrf_cookie(p0)
    entry = await in_db(do_quick_match)(member(cooled), STAKE)
    assert (await in_db(fresh)(entry)).status == Game.Status.OPEN

    until = timezone.now() + timedelta(seconds=5)  # longer than the checks below take
    await in_db(bans.do_ban)(mod, cooled, reason="Cool off", until=until)

    # The quick-match entry is withdrawn and its stake is back; the old sessions can't queue again.
    assert (await in_db(fresh)(entry)).status != Game.Status.OPEN
    assert await in_db(balance_of)(cooled.pk) == grant
    for browser in (before_ban, legacy):
        for port in sites.ports:
            quick = {"tier": STAKE, "ruleset": "twodice"}
            await browser.post(port, "/staked/quick", quick, htmx=False)
    assert await in_db(open_entries)(cooled) == []

    # Once the ban has run out, the player logs in (on the other process) and plays, on both.
    await asyncio.sleep(max(0.0, (until - timezone.now()).total_seconds()) + 0.2)
    back = Browser("cooled@1")
    assert await back.log_in(p1, "cooled") == 302
    _, _, html = await back.get(p1, "/games/new/computer/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    fields = {"csrfmiddlewaretoken": token, "ruleset": "classic", "players": "2",
              "tokens": "4", "level_2": "greedy"}  # fmt: skip
    status, where, _ = await back.post(p1, "/games/new/computer/", fields, htmx=False)
    assert status == 302 and where.startswith("/games/"), (status, where)
    game_id = where.rstrip("/").split("/")[-1]
    page = await Page.open("cooled@0", p0, game_id, back.session_key)
    try:
        mine = await in_db(seat_index)(game_id, cooled)

        def my_turn():
            game = Game.objects.get(pk=game_id)
            turn = turn_seat(game)
            return turn is not None and turn.index == mine

        await in_db(wait_for)(my_turn, 10)
        name, values = await in_db(command_for)(game_id, mine)
        status, _, body = await back.post(p1, f"/games/{game_id}/{name}", values)
        assert status == 200, body[:300]
        await in_db(wait_for)(my_turn, 10)
        name, values = await in_db(command_for)(game_id, mine)
        assert (await answer_to(page, name, values)).startswith("accepted")
        played = await in_db(
            lambda: Action.objects.filter(game_id=game_id, seat__user=cooled).count()
        )()
        assert played >= 2
    finally:
        await close_all([page])
    await assert_books_hold(rounds_expected=False)
