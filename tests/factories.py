"""Everything the tests make: accounts, actors, games and rooms of each kind, staked rooms, finished
games and rounds. One place to look for "how do I get a ... in a test".

Older homes of these helpers still offer them under the names they always had, imported from here:
tests/games/webplay.py (actors and rooms), tests/leaderboard/helpers.py (accounts and finished rounds),
tests/browser/play.py (`make_user`) and tests/browser/records.py (`play_local_game`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from games import actions, engine
from games.actions import Actor, SeatSpec, TimerSpec
from games.core import presence
from games.models import Game, Round, Seat
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from leaderboard.finished_rounds import FinishedRound, SeatFacts
from leaderboard.results import record_round, write_rounds

User = get_user_model()
# A fixed server seed (settings.LUDOPAT_FIXED_SERVER_SEED) for repeatable dice.
SEED = "ab" * 32
PASSWORD = "a long enough test passphrase 7"

# ---------------------------------------------------------------------------------------------------
# People: accounts and the actors that act for them


def anon(key: str = "browser-1") -> Actor:
    """Someone without an account, known by their browser's key."""
    return Actor(None, key)


def member(user) -> Actor:
    """The actor for an account."""
    return Actor(user.pk, f"key-{user.pk}", user.username)


def accounts(*names):
    """One account per name (password "x")."""
    return [User.objects.create_user(name, password="x") for name in names]


def make_user(username: str):
    """An account with PASSWORD, to log in with through the log-in page."""
    return User.objects.create_user(username, password=PASSWORD)


# A fixed authenticator secret (hex), so a test or a browser test computes the codes an app would show.
AUTHENTICATOR_KEY = "3132333435363738393031323334353637383930"


def with_authenticator(user):
    """`user`'s confirmed authenticator app (TOTP, AUTHENTICATOR_KEY), made if it has none."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(
        user=user, name="Authenticator app", key=AUTHENTICATOR_KEY, confirmed=True
    )


def code_now(device=None, at: float | None = None) -> str:
    """The 6 digits an authenticator app with AUTHENTICATOR_KEY (or `device`'s key) shows now (or at
    the Unix time `at`)."""
    import time
    from binascii import unhexlify

    from django_otp.oath import TOTP

    app = TOTP(unhexlify(device.key if device is not None else AUTHENTICATOR_KEY))
    app.time = at if at is not None else time.time()
    return f"{app.token():06d}"


def verified_client(user, client=None):
    """A test client logged in as `user` in a session its authenticator verified (made if needed), as
    the log-in's code step leaves it: what the desk and the admin ask of a staff session."""
    from django.test import Client
    from django_otp import DEVICE_ID_SESSION_KEY

    client = client or Client()
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = with_authenticator(user).persistent_id
    session.save()
    return client


def seasoned_account(name: str, password: str | None = None):
    """An account two days old: past the age the new-player limits look at."""
    user = User.objects.create_user(name, password=password)
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=2))
    return User.objects.get(pk=user.pk)


# ---------------------------------------------------------------------------------------------------
# Games and rooms


def computer_game(actor=None, ruleset="classic", options=None, levels=("greedy",)) -> Game:
    """A game against the computer (one computer per level), started."""
    actor = actor or anon()
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.COMPUTER, level=lv) for lv in levels]
    return actions.create_game(actor, "computer", ruleset, options or {}, seats)


def local_game(actor=None, ruleset="classic", options=None, names=("Ann", "Ben")) -> Game:
    """A pass & play game on one screen, started."""
    actor = actor or anon()
    seats = [SeatSpec(Seat.Kind.LOCAL, name=n) for n in names]
    return actions.create_game(actor, "local", ruleset, options or {}, seats)


def friends_room(host: Actor, guests=(), ruleset="classic", count=2, start=True) -> Game:
    """A friends room of `count` seats that `guests` joined, started unless `start` is false."""
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.OPEN) for _ in range(count - 1)]
    game = actions.create_game(host, "friends", ruleset, {}, seats)
    for guest in guests:
        actions.do_join(game.pk, guest)
    if start:
        actions.do_start(game.pk, host)
    game.refresh_from_db()
    return game


def room(users, ruleset="classic") -> Game:
    """A started friends room with one seat per account, in the order given."""
    return friends_room(
        member(users[0]), [member(u) for u in users[1:]], ruleset=ruleset, count=len(users)
    )


def everyone_here(game: Game) -> None:
    """Every human seat's player has the game's page open (as far as presence knows)."""
    ids = list(game.seats.filter(kind=Seat.Kind.HUMAN).values_list("pk", flat=True))
    presence.touch(game.pk, ids, "test-connection")


def timed_room(
    host, guest, seconds=10, pauses=2, pause_seconds=60, ruleset="twodice", *, start=True
) -> Game:
    """A timed two-seat friends room, `guest` joined; with `start`, both present and started (without,
    it waits for its host's Start, and for the pages that will make its players present)."""
    game = actions.create_game(
        host,
        "friends",
        ruleset,
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(seconds, pauses, pause_seconds),
    )
    actions.do_join(game.pk, guest)
    if start:
        everyone_here(game)
        actions.do_start(game.pk, host)
    return Game.objects.get(pk=game.pk)


def staked_room(host: Actor, stake=100, ruleset="twodice", **kwargs) -> Game:
    """An open staked room: `host`'s stake is in escrow, waiting for an opponent."""
    return do_create_staked_room(host, ruleset, stake, **kwargs)


# ---------------------------------------------------------------------------------------------------
# Finished games and rounds


def play_local_game(finish: bool = True, ruleset: str = "classic", options: dict | None = None):
    """A pass & play game (default: classic quick game, 2 tokens each) played through games.actions,
    always with the first legal move: to the end if `finish`, else for six actions."""
    actor = Actor(None, "owner-key")
    game = actions.create_game(
        actor,
        "local",
        "classic",
        {"tokens": 2},
        [SeatSpec("local", "Alice"), SeatSpec("local", "Bob")],
    )
    for _ in range(5000 if finish else 6):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            break
        state = actions.engine_state(game)
        if engine.can_roll(state):
            actions.do_roll(game.pk, actor, None)
        else:
            move = engine.legal_moves(state)[0]
            actions.do_move(game.pk, actor, None, move.colour, move.index, move.die, move.pair)
    return Game.objects.get(pk=game.pk)


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).index


def finish(game: Game, order, how="won", coins=None):
    """Record the game's round as ended with `order` (accounts, or seat indexes) first to last."""
    seats = list(game.seats.select_related("user"))
    places = [o if isinstance(o, int) else seat_of(game, o) for o in order]
    game.status = Game.Status.FINISHED  # as finish_round leaves the game before it records
    game.result_places = places
    game.save(update_fields=["status", "result_places"])
    return record_round(game, seats, places, how, coins or {})


def bare_round(ruleset="classic") -> Round:
    game = Game.objects.create(mode=Game.Mode.FRIENDS, ruleset=ruleset)
    return Round.objects.create(game=game, number=1)


def write(order, when: datetime, ruleset="classic", how="won", computers=()):
    """Write one round at `when` through the results writer: `order` holds accounts or None for a
    computer, first place first."""
    kept = bare_round(ruleset)
    seats = [
        SeatFacts(i, u.pk if u else None, u.username if u else f"Computer {i}", u is None)
        for i, u in enumerate(order)
    ]
    played = FinishedRound(kept.pk, ruleset, seats, list(range(len(order))), how, when)
    return write_rounds([played])


def finished_staked_game(winner, loser) -> Game:
    """`winner`'s staked room (100 coins), joined by `loser`, who resigned (accounts, not actors)."""
    game = staked_room(member(winner), 100)
    do_join_staked_room(member(loser), game.pk)
    actions.do_resign(game.pk, member(loser))
    return Game.objects.get(pk=game.pk)
